package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;

/** Small HTML pages for test sites. */
final class Html {
  private Html() {}

  /** Makes {@code server} answer GET {@code path} with {@code body} as text/html. */
  static void serve(WireMockServer server, String path, String body) {
    server.stubFor(get(urlEqualTo(path)).willReturn(aResponse().withHeader("Content-Type", "text/html").withBody(body)));
  }

  /** A page whose body holds one {@code <a href>} per link. */
  static String page(String title, String... hrefs) {
    StringBuilder body = new StringBuilder("<!doctype html><html><head><title>").append(title)
        .append("</title></head><body><h1>").append(title).append("</h1>\n");
    for (String href : hrefs) {
      body.append("<p><a href=\"").append(href).append("\">").append(href).append("</a></p>\n");
    }
    return body.append("</body></html>\n").toString();
  }
}

package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Sitemaps listed by robots.txt: their URLs are crawled like links, within scope and robots.txt, each once. */
class SitemapTest {
  private final WireMockServer server = new WireMockServer(options().dynamicPort());
  private String root;

  @BeforeEach
  void serve() {
    server.start();
    root = "http://localhost:" + server.port();
    Html.serve(server, "/", Html.page("root", "/linked"));
    for (String path : List.of("/linked", "/orphan", "/deep/orphan", "/closed/x", "/from-index", "/from-gzip")) {
      Html.serve(server, path, Html.page(path));
    }
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  private CollectingSink crawl(CrawlSettings.Builder settings) {
    CollectingSink sink = new CollectingSink();
    Crawler crawler = Crawler.create(settings.set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L).build(), sink);
    crawler.run(List.of(root + "/"));
    assertEquals(List.of(), crawler.workerFailures());
    return sink;
  }

  private void robots(String body) {
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withBody(body)));
  }

  private static String urlset(String... urls) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for (String url : urls) {
      xml.append("  <url><loc>").append(url).append("</loc></url>\n");
    }
    return xml.append("</urlset>\n").toString();
  }

  @Test
  void pagesOnlyASitemapListsAreFetchedOnceWithinScopeAndRobotsTxt() {
    robots("User-agent: *\nDisallow: /closed/\n\nSitemap: " + root + "/sitemap.xml\n");
    server.stubFor(get(urlEqualTo("/sitemap.xml")).willReturn(aResponse()
        .withHeader("Content-Type", "application/xml")
        .withBody(urlset(root + "/orphan", root + "/deep/orphan", root + "/linked", root + "/closed/x",
            "http://elsewhere.invalid/page", root + "/orphan#again"))));
    CollectingSink sink = crawl(CrawlSettings.builder());
    assertEquals(List.of(root + "/", root + "/deep/orphan", root + "/linked", root + "/orphan",
        root + "/sitemap.xml"), sink.fetchedUrls());
    CrawlResult sitemap = sink.get(root + "/sitemap.xml");
    assertEquals(200, sitemap.status());
    assertEquals(6, sitemap.outlinks(), "every URL it lists");
    assertEquals(1, sitemap.depth());
    assertEquals(root + "/robots.txt", sitemap.referrer());
    CrawlResult orphan = sink.get(root + "/orphan");
    assertEquals(1, orphan.depth(), "a sitemap's URLs count as one hop, as the sitemap does");
    assertEquals(root + "/sitemap.xml", orphan.referrer());
    assertEquals(ErrorKind.ROBOTS_DISALLOWED, sink.get(root + "/closed/x").errorKind());
    server.verify(1, getRequestedFor(urlEqualTo("/orphan")));
    server.verify(1, getRequestedFor(urlEqualTo("/linked")));
  }

  @Test
  void anIndexLeadsToItsSitemapsCompressedOrNot() throws IOException {
    robots("Sitemap: /sitemap-index.xml\n");
    server.stubFor(get(urlEqualTo("/sitemap-index.xml")).willReturn(aResponse().withBody(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
            + "  <sitemap><loc>" + root + "/a.xml</loc></sitemap>\n"
            + "  <sitemap><loc>" + root + "/b.xml.gz</loc></sitemap>\n"
            + "  <sitemap><loc>" + root + "/c.txt</loc></sitemap>\n"
            + "</sitemapindex>\n")));
    server.stubFor(get(urlEqualTo("/a.xml")).willReturn(aResponse().withHeader("Content-Type", "text/xml")
        .withBody(urlset(root + "/from-index"))));
    server.stubFor(get(urlEqualTo("/b.xml.gz")).willReturn(aResponse()
        .withHeader("Content-Type", "application/x-gzip").withBody(gzip(urlset(root + "/from-gzip")))));
    server.stubFor(get(urlEqualTo("/c.txt")).willReturn(aResponse().withHeader("Content-Type", "text/plain")
        .withBody(root + "/orphan\n" + root + "/deep/orphan\n")));
    CollectingSink sink = crawl(CrawlSettings.builder());
    assertEquals(List.of(root + "/", root + "/a.xml", root + "/b.xml.gz", root + "/c.txt", root + "/deep/orphan",
        root + "/from-gzip", root + "/from-index", root + "/linked", root + "/orphan", root + "/sitemap-index.xml"),
        sink.fetchedUrls());
    assertEquals(1, sink.get(root + "/from-gzip").depth(), "an index's sitemaps and their URLs keep its depth");
  }

  @Test
  void aSitemapThatIsNoSitemapIsRecordedAsSuch() {
    robots("Sitemap: " + root + "/sitemap.xml\n");
    server.stubFor(get(urlEqualTo("/sitemap.xml")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody(Html.page("soft 404", "/orphan"))));
    CollectingSink sink = crawl(CrawlSettings.builder());
    CrawlResult sitemap = sink.get(root + "/sitemap.xml");
    assertEquals(ErrorKind.NOT_A_SITEMAP, sitemap.errorKind(), String.valueOf(sitemap.error()));
    assertEquals(200, sitemap.status());
    assertEquals(List.of(root + "/", root + "/linked", root + "/sitemap.xml"), sink.fetchedUrls(),
        "its links are not followed as a page's would be");
  }

  @Test
  void sitemapsAreNotFollowedWhenTurnedOffOrAtDepthZero() {
    robots("Sitemap: " + root + "/sitemap.xml\n");
    server.stubFor(get(urlEqualTo("/sitemap.xml")).willReturn(aResponse().withBody(urlset(root + "/orphan"))));
    assertEquals(List.of(root + "/", root + "/linked"),
        crawl(CrawlSettings.builder().set(Setting.FOLLOW_SITEMAPS, false)).fetchedUrls());
    assertEquals(List.of(root + "/"), crawl(CrawlSettings.builder().set(Setting.MAX_DEPTH, 0)).fetchedUrls());
    server.verify(0, getRequestedFor(urlEqualTo("/sitemap.xml")));
  }

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }
}

package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.RequestHeader;
import io.sievecrawl.config.Scope;
import io.sievecrawl.config.Setting;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The user's extra headers (fetch.header) go with every request, robots.txt included; Authorization and Cookie only
 * to the seed's origin, a user's Cookie joined with the one the site set.
 */
class RequestHeadersTest {
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite();
  @RegisterExtension
  final LoopbackSite otherPortSite = new LoopbackSite(); // the seed's host name, on another port
  private final WireMockServer server = loopback.server();
  private final WireMockServer otherPort = otherPortSite.server();
  private String seedHost;
  private String otherHost;

  @BeforeEach
  void serve() {
    seedHost = "localhost:" + server.port();
    otherHost = "127.0.0.1:" + server.port(); // another host name on the same server
    server.stubFor(get(urlEqualTo("/")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withHeader("Set-Cookie", "session=abc; Path=/")
        .withBody(Html.page("home", "/next", "http://" + otherHost + "/elsewhere",
            otherPortSite.root() + "/port"))));
    Html.serve(server, "/next", Html.page("next"));
    Html.serve(server, "/elsewhere", Html.page("elsewhere"));
    Html.serve(otherPort, "/port", Html.page("another server of the seed's host"));
  }

  @Test
  void extraHeadersGoEverywhereAndCredentialsOnlyToTheSeedsHost() {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L).set(Setting.SCOPE, Scope.ANY).set(Setting.ALLOW_PRIVATE_ADDRESSES, true)
        .set(Setting.HEADER, List.of(new RequestHeader("Accept-Language", "fr"),
            new RequestHeader("Authorization", "Bearer t0k"), new RequestHeader("Cookie", "pref=1"),
            new RequestHeader("Accept", "text/html")))
        .build();
    CollectingSink sink = new CollectingSink();
    Crawler crawler = Crawler.create(settings, sink);
    crawler.run(List.of("http://" + seedHost + "/"));
    assertEquals(List.of(), crawler.workerFailures());
    assertEquals(200, sink.get("http://" + otherHost + "/elsewhere").status());
    assertEquals(200, sink.get(otherPortSite.root() + "/port").status());

    for (String path : List.of("/robots.txt", "/", "/next")) {
      LoggedRequest request = only(seedHost, path);
      assertEquals("fr", request.getHeader("Accept-Language"), path);
      assertEquals("Bearer t0k", request.getHeader("Authorization"), path);
      assertEquals(List.of("text/html"), request.header("Accept").values(), path + ": replaces the crawler's");
    }
    assertEquals("pref=1", only(seedHost, "/").getHeader("Cookie"), "no cookie from the site yet");
    assertEquals("pref=1; session=abc", only(seedHost, "/next").getHeader("Cookie"), "the user's, then the site's");

    for (String path : List.of("/robots.txt", "/elsewhere")) {
      LoggedRequest request = only(otherHost, path);
      assertEquals("fr", request.getHeader("Accept-Language"), path);
      assertNull(request.getHeader("Authorization"), path + ": another host");
      assertNull(request.getHeader("Cookie"), path + ": another host");
    }
    for (LoggedRequest request : otherPort.getAllServeEvents().stream().map(e -> e.getRequest()).toList()) {
      assertEquals("fr", request.getHeader("Accept-Language"), request.getUrl());
      assertNull(request.getHeader("Authorization"), request.getUrl() + ": another port of the seed's host");
      String cookie = request.getHeader("Cookie"); // the site's own cookie may go (cookies ignore ports), not the user's
      assertTrue(cookie == null || !cookie.contains("pref=1"), request.getUrl() + ": another port of the seed's host");
    }
    assertEquals(2, otherPort.getAllServeEvents().size(), "robots.txt and the page");
  }

  private LoggedRequest only(String host, String path) {
    List<LoggedRequest> found = server.getAllServeEvents().stream().map(e -> e.getRequest())
        .filter(r -> r.getUrl().equals(path) && r.getHeader("Host").equals(host)).toList();
    assertEquals(1, found.size(), host + path);
    return found.get(0);
  }
}

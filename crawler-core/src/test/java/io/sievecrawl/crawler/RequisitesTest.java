package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.RequisiteFetch;
import io.sievecrawl.config.Scope;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.result.CrawlResult;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Page requisites: what each page needs to be shown is fetched once, ahead of the rest of its origin's queue, from
 * any host, under robots.txt, with no credentials to another origin, recorded as requisites of the page that needed
 * them; a style sheet is read for its own requisites, in-scope HTML as a page.
 */
class RequisitesTest {
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 0};

  @RegisterExtension
  final LoopbackSite site = new LoopbackSite();
  @RegisterExtension
  final LoopbackSite cdn = new LoopbackSite();
  private String root;
  private String cdnRoot;

  @BeforeEach
  void serve() {
    root = site.root();
    cdnRoot = cdn.root();
    stubAll();
  }

  private void stubAll() {
    serveHome();
    WireMockServer a = site.server();
    Html.serve(a, "/page2", "<title>2</title><img src=\"/logo.png\"><img src=\"/p2.png\">");
    Html.serve(a, "/page3", "<title>3</title><p>three</p>");
    Html.serve(a, "/embedded.html", "<title>E</title><a href=\"/from-embedded\">x</a><img src=\"/e.png\">");
    Html.serve(a, "/from-embedded", "<title>F</title>");
    css(a, "/style.css", "@import \"base.css\"; body { background: url(bg.png) }");
    css(a, "/base.css", "h1 { background: url(/h1.png) } h2 { background: url(/private.png) }");
    for (String image : List.of("/logo.png", "/logo-2x.png", "/bg.png", "/h1.png", "/p2.png", "/e.png",
        "/private.png")) {
      a.stubFor(get(urlEqualTo(image)).willReturn(aResponse().withHeader("Content-Type", "image/png").withBody(PNG)));
    }
    a.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withBody("User-agent: *\nDisallow: /private")));
    cdn.server().stubFor(get(urlEqualTo("/lib.js")).willReturn(aResponse()
        .withHeader("Content-Type", "text/javascript").withBody("var x = 1;")));
  }

  /** The home page, which needs a script from {@code cdnRoot}. */
  private void serveHome() {
    site.server().stubFor(get(urlEqualTo("/")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withHeader("Set-Cookie", "session=s1; Path=/").withBody("""
            <!doctype html><html><head><title>Home</title>
            <link rel="stylesheet" href="/style.css"><script src="%s/lib.js"></script></head>
            <body><img src="/logo.png" srcset="/logo-2x.png 2x"><object data="/embedded.html"></object>
            <a href="/page2">2</a> <a href="/page3">3</a></body></html>""".formatted(cdnRoot))));
  }

  private static void css(WireMockServer server, String path, String body) {
    server.stubFor(get(urlEqualTo(path)).willReturn(aResponse().withHeader("Content-Type", "text/css").withBody(body)));
  }

  private record Crawl(CrawlSummary summary, CollectingSink sink) {}

  private Crawl crawl(UnaryOperator<CrawlSettings.Builder> more) {
    CrawlSettings.Builder settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO)
        .set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L).set(Setting.REQUISITES_FETCH, RequisiteFetch.ON)
        .parse(Setting.HEADER, "X-Test: yes", "test");
    CollectingSink sink = new CollectingSink();
    Crawler crawler = Crawler.create(more.apply(settings).build(), sink);
    CrawlSummary summary = crawler.run(List.of(root + "/"));
    assertEquals(List.of(), crawler.workerFailures());
    return new Crawl(summary, sink);
  }

  /**
   * The paths the server was asked for, in the order it was asked. The journal lists the newest first; its dates are
   * to the millisecond, in which requests without a delay often share one, so the journal's own order breaks ties.
   */
  private static List<String> requested(WireMockServer server) {
    List<ServeEvent> events = new java.util.ArrayList<>(server.getAllServeEvents());
    java.util.Collections.reverse(events);
    return events.stream().sorted(Comparator.comparing(e -> e.getRequest().getLoggedDate()))
        .map(ServeEvent::getRequest).map(r -> r.getUrl()).filter(u -> !u.equals("/robots.txt")).toList();
  }

  @Test
  void everyRequisiteIsFetchedOnceAndRecordedAsTheRequisiteOfThePageThatNeededIt() {
    Crawl crawl = crawl(s -> s);
    assertEquals(List.of("/", "/base.css", "/bg.png", "/e.png", "/embedded.html", "/from-embedded", "/h1.png",
        "/logo-2x.png", "/logo.png", "/p2.png", "/page2", "/page3", "/style.css"),
        requested(site.server()).stream().sorted().toList(), "each once; /private.png disallowed by robots.txt");
    assertEquals(List.of("/lib.js"), requested(cdn.server()));

    CrawlResult logo = crawl.sink().get(root + "/logo.png");
    assertTrue(logo.requisite());
    assertEquals(root + "/", logo.referrer(), "the page that needed it first");
    assertEquals(0, logo.depth(), "a requisite is no hop");
    assertEquals(root + "/style.css", crawl.sink().get(root + "/bg.png").referrer());
    assertEquals(root + "/base.css", crawl.sink().get(root + "/h1.png").referrer());
    assertEquals(2, crawl.sink().get(root + "/style.css").outlinks(), "a style sheet's references: @import, url()");
    assertFalse(crawl.sink().get(root + "/page2").requisite());
    assertEquals(1, crawl.sink().get(root + "/page2").depth());
    CrawlResult embedded = crawl.sink().get(root + "/embedded.html");
    assertTrue(embedded.requisite());
    assertEquals("E", embedded.title(), "an object's page in scope is read as a page");
    assertEquals(1, crawl.sink().get(root + "/from-embedded").depth(), "its links are a hop from it");
    assertEquals(10, crawl.summary().requisites(), "the summary counts requisites apart");
    assertEquals(14, crawl.summary().fetched());
    assertEquals(1L, crawl.summary().skipped().get("robots"));
  }

  @Test
  void aPagesRequisitesAreFetchedBeforeTheRestOfItsOriginsQueue() {
    crawl(s -> s);
    List<String> order = requested(site.server());
    int page2 = order.indexOf("/page2");
    for (String requisite : List.of("/style.css", "/base.css", "/bg.png", "/h1.png", "/logo.png", "/logo-2x.png",
        "/embedded.html", "/e.png")) {
      assertTrue(order.indexOf(requisite) < page2, requisite + " before /page2 in " + order);
    }
    assertTrue(order.indexOf("/p2.png") < order.indexOf("/page3"), "page 2's image before page 3: " + order);
  }

  @Test
  void aRequisiteOfAnotherOriginGetsNeitherTheUsersHeadersNorCookies() {
    crawl(s -> s);
    site.server().verify(getRequestedFor(urlEqualTo("/style.css")).withHeader("X-Test",
        com.github.tomakehurst.wiremock.client.WireMock.equalTo("yes")).withHeader("Cookie",
        com.github.tomakehurst.wiremock.client.WireMock.containing("session=s1")));
    Map<String, String> cdnHeaders = new java.util.HashMap<>();
    cdn.server().getAllServeEvents().forEach(e -> e.getRequest().getHeaders().all()
        .forEach(h -> cdnHeaders.put(h.key().toLowerCase(java.util.Locale.ROOT), h.firstValue())));
    assertNull(cdnHeaders.get("x-test"), cdnHeaders.toString());
    assertNull(cdnHeaders.get("cookie"), "the site's cookie is a localhost cookie, any port: " + cdnHeaders);
    assertEquals("*/*", cdnHeaders.get("accept"));
  }

  @Test
  void thePageLimitEndsThePagesButThoseFetchedStillGetTheirRequisites() {
    Crawl crawl = crawl(s -> s.set(Setting.MAX_PAGES, 1L));
    assertEquals(CrawlSummary.End.PAGE_LIMIT, crawl.summary().end());
    List<String> asked = requested(site.server());
    assertFalse(asked.contains("/page2"), asked.toString());
    assertTrue(asked.containsAll(List.of("/style.css", "/base.css", "/bg.png", "/h1.png", "/logo.png",
        "/logo-2x.png", "/embedded.html", "/e.png")), asked.toString());
    assertEquals(List.of("/lib.js"), requested(cdn.server()));
    assertEquals(1, crawl.summary().fetched() - crawl.summary().requisites());
    assertTrue(crawl.summary().notFetched() >= 2, "page 2 and 3 wait for a resumed crawl");
  }

  @Test
  void requisitesScopeHostKeepsToThePagesSite() {
    Crawl crawl = crawl(s -> s.set(Setting.REQUISITES_SCOPE, Scope.HOST));
    assertEquals(List.of(), requested(cdn.server()));
    assertEquals(1L, crawl.summary().notAdmitted().get("requisite-out-of-scope-host"));
  }

  @Test
  void requisitesScopeDomainKeepsToThePagesRegistrableDomain() {
    int cdnPort = cdn.server().port();
    root = "http://www.example.com:" + site.server().port();
    site.server().stubFor(get(urlEqualTo("/")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody("""
            <title>Home</title><link rel="stylesheet" href="http://static.example.com:%d/lib.css">
            <img src="http://images.example.net:%d/logo.png">""".formatted(cdnPort, cdnPort))));
    css(cdn.server(), "/lib.css", "p { color: red }");
    cdn.server().stubFor(get(urlEqualTo("/logo.png")).willReturn(aResponse().withHeader("Content-Type", "image/png")
        .withBody(PNG)));
    String pins = "www.example.com:%d:127.0.0.1 static.example.com:%d:127.0.0.1 images.example.net:%d:127.0.0.1"
        .formatted(site.server().port(), cdnPort, cdnPort); // every name on loopback: nothing leaves the machine

    crawl(s -> s.parse(Setting.RESOLVE, pins, "test"));
    assertEquals(List.of("/lib.css", "/logo.png"), requested(cdn.server()).stream().sorted().toList(), "scope any");
    cdn.server().resetRequests();
    Crawl domain = crawl(s -> s.parse(Setting.RESOLVE, pins, "test").set(Setting.REQUISITES_SCOPE, Scope.DOMAIN));
    assertEquals(List.of("/lib.css"), requested(cdn.server()), "example.net is another registrable domain");
    assertEquals(1L, domain.summary().notAdmitted().get("requisite-out-of-scope-host"));
  }

  @Test
  void aRequisiteIsReadUpToItsOwnCapNotThePages() {
    byte[] big = new byte[8_192];
    new java.util.Random(34).nextBytes(big); // bytes no gzip makes smaller on the wire
    site.server().stubFor(get(urlEqualTo("/logo.png")).willReturn(aResponse().withHeader("Content-Type", "image/png")
        .withBody(big)));
    Crawl capped = crawl(s -> s.parse(Setting.REQUISITES_MAX_BODY_SIZE, "2048", "test"));
    CrawlResult logo = capped.sink().get(root + "/logo.png");
    assertTrue(logo.truncated(), "cut off at requisites.max-body-size");
    assertEquals(2_048, logo.bytes());
    assertFalse(capped.sink().get(root + "/").truncated());

    Crawl pagesCapped = crawl(s -> s.parse(Setting.MAX_BODY_SIZE, "2048", "test"));
    assertFalse(pagesCapped.sink().get(root + "/logo.png").truncated(), "fetch.max-body-size is the pages' cap");
    assertEquals(8_192, pagesCapped.sink().get(root + "/logo.png").bytes());
  }

  @Test
  void aRequisiteOnALocalAddressThatNoSeedHasIsRefusedUnlessAllowed() {
    site.server().resetMappings();
    cdnRoot = "http://127.0.0.1:" + cdn.server().port(); // the seed's host is localhost
    stubAll();
    Crawl refused = crawl(s -> s);
    assertEquals(List.of(), requested(cdn.server()), "a public page may not lead into the local network");
    assertEquals(1L, refused.summary().notAdmitted().get("requisite-out-of-scope-private"));
    crawl(s -> s.set(Setting.ALLOW_PRIVATE_ADDRESSES, true));
    assertEquals(List.of("/lib.js"), requested(cdn.server()));
  }

  @Test
  void withoutRequisitesNoneIsFetched() {
    Crawl crawl = crawl(s -> s.set(Setting.REQUISITES_FETCH, RequisiteFetch.AUTO)); // no WARC output
    assertEquals(List.of("/", "/page2", "/page3"), requested(site.server()).stream().sorted().toList());
    assertEquals(0, crawl.summary().requisites());
  }
}

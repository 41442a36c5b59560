package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.schedule.HostScheduler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Crawls a small site with every awkward feature at once, once for the whole class, and checks one behaviour per
 * test: the exact set of URLs fetched, each once; redirects; retries; robots.txt; bodies; Crawl-delay; the summary.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrawlerEndToEndTest {
  private static final String GZ_PAGE = Html.page("gzip", "/gz-child");
  private static final long BODY_CAP = 64_000;
  // The server compresses nothing by itself, so the body cap is met in bytes received (the /gzip page is
  // compressed by the test, as sent).
  @RegisterExtension
  final LoopbackSite siteA = LoopbackSite.uncompressed();
  @RegisterExtension
  final LoopbackSite siteB = new LoopbackSite();
  private final WireMockServer site = siteA.server();
  private final WireMockServer slow = siteB.server();
  private String a; // http://localhost:port
  private String b; // http://127.0.0.1:port, a different host for politeness
  private final CollectingSink sink = new CollectingSink();
  private final List<Long> leasesOfA = new CopyOnWriteArrayList<>();
  private final List<Long> requestsOfA = new CopyOnWriteArrayList<>();
  private CrawlSummary summary;
  private List<Throwable> workerFailures;
  private Map<String, Long> requests;

  @BeforeAll
  void crawlTheSites() throws IOException {
    serveSites();
    CrawlSettings settings = CrawlSettings.builder()
        .set(Setting.SCOPE, io.sievecrawl.config.Scope.ANY)
        .set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.MAX_CRAWL_DELAY, Duration.ofMillis(150))
        .set(Setting.CONCURRENCY, 4)
        .set(Setting.RETRY_BACKOFF, Duration.ofMillis(10))
        .set(Setting.MAX_BODY_SIZE, BODY_CAP)
        .set(Setting.FILTER_N, 10_000L)
        .build();
    Crawler crawler = Crawler.builder(settings, sink)
        .leaseObserver(new HostScheduler.LeaseObserver() {
          @Override
          public void leased(String origin, long nanos) {
            if (origin.equals(a)) {
              leasesOfA.add(nanos);
            }
          }

          @Override
          public void startTakenBack(String origin, long nanos) { // a lease that sent no request (/private/secret)
            if (origin.equals(a)) {
              leasesOfA.remove(Long.valueOf(nanos));
            }
          }

          @Override
          public void sent(String origin, long nanos) {
            if (origin.equals(a)) {
              requestsOfA.add(nanos);
            }
          }
        })
        .build();
    summary = crawler.run(List.of(a + "/", b + "/"));
    workerFailures = crawler.workerFailures();
    requests = requestsByPath(site);
  }

  private void serveSites() throws IOException {
    a = siteA.root();
    b = "http://127.0.0.1:" + slow.port();

    html(site, "/", Html.page("home", "/a", "b", "/a#top", "./a", a + "/b", "/private/secret", "/redirect1",
        "/loop1", "/missing", "/error", "/throttled", "/file.pdf", "/big", "/gzip", "/latin",
        "mailto:someone@example.com", "javascript:void(0)", "tel:+123", b + "/"));
    html(site, "/a", Html.page("a", "/", "/b", "../a"));
    html(site, "/b", Html.page("b", "/a", "#self"));
    html(site, "/private/secret", Html.page("secret"));
    site.stubFor(get(urlEqualTo("/redirect1")).willReturn(aResponse().withStatus(301).withHeader("Location", "/redirect2")));
    site.stubFor(get(urlEqualTo("/redirect2")).willReturn(aResponse().withStatus(302).withHeader("Location", a + "/c#x")));
    html(site, "/c", Html.page("c", "/"));
    site.stubFor(get(urlEqualTo("/loop1")).willReturn(aResponse().withStatus(301).withHeader("Location", "/loop2")));
    site.stubFor(get(urlEqualTo("/loop2")).willReturn(aResponse().withStatus(301).withHeader("Location", "/loop1")));
    site.stubFor(get(urlEqualTo("/missing")).willReturn(aResponse().withStatus(404).withBody("not here")));
    site.stubFor(get(urlEqualTo("/error")).willReturn(aResponse().withStatus(500).withBody("broken")));
    site.stubFor(get(urlEqualTo("/throttled")).inScenario("throttle").whenScenarioStateIs(STARTED)
        .willReturn(aResponse().withStatus(429).withHeader("Retry-After", "1")).willSetStateTo("rested"));
    site.stubFor(get(urlEqualTo("/throttled")).inScenario("throttle").whenScenarioStateIs("rested")
        .willReturn(aResponse().withHeader("Content-Type", "text/html").withBody(Html.page("throttled"))));
    site.stubFor(get(urlEqualTo("/file.pdf")).willReturn(aResponse().withHeader("Content-Type", "application/pdf")
        .withBody("%PDF-1.4 <a href=\"/not-a-link\">")));
    // Over the body cap: cut off, yet its first link is followed.
    html(site, "/big", Html.page("big", "/big-child") + "<!--" + "x".repeat(200_000) + "-->");
    html(site, "/big-child", Html.page("big child"));
    site.stubFor(get(urlEqualTo("/gzip")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withHeader("Content-Encoding", "gzip").withBody(gzip(GZ_PAGE))));
    html(site, "/gz-child", Html.page("gz child"));
    site.stubFor(get(urlEqualTo("/latin")).willReturn(aResponse()
        .withHeader("Content-Type", "text/html; charset=ISO-8859-1")
        .withBody(Html.page("latin", "/caf\u00e9").getBytes(StandardCharsets.ISO_8859_1))));
    html(site, "/caf%C3%A9", Html.page("café"));

    site.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse()
        .withHeader("Content-Type", "text/plain").withBody("User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n")));
    slow.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(404)));
    slow.stubFor(get(urlEqualTo("/")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody(Html.page("slow", "/slow2")).withFixedDelay(800)));
    slow.stubFor(get(urlEqualTo("/slow2")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody(Html.page("slow 2", a + "/")).withFixedDelay(800)));
  }

  @Test
  void fetchesEveryReachableUrlInScopeExactlyOnce() {
    assertEquals(List.of(), workerFailures);
    Set<String> expected = Set.of("/", "/a", "/b", "/redirect1", "/redirect2", "/c", "/loop1", "/loop2", "/missing",
            "/error", "/throttled", "/file.pdf", "/big", "/big-child", "/gzip", "/gz-child", "/latin", "/caf%C3%A9").stream()
        .map(p -> a + p).collect(Collectors.toSet());
    Set<String> expectedAll = new java.util.HashSet<>(expected);
    expectedAll.add(b + "/");
    expectedAll.add(b + "/slow2");
    assertEquals(new TreeMap<>(expectedAll.stream().collect(Collectors.toMap(u -> u, u -> 1L))),
        new TreeMap<>(sink.countsByUrl()), "each URL in scope fetched exactly once");
  }

  @Test
  void theServerSeesOneRequestPerUrlApartFromRetries() {
    assertEquals(1L, requests.get("/robots.txt"));
    requests.forEach((path, count) -> {
      if (!Set.of("/error", "/throttled").contains(path)) {
        assertEquals(1L, count, path);
      }
    });
    assertNull(requests.get("/not-a-link"), "non-HTML bodies are not parsed");
  }

  @Test
  void robotsTxtKeepsDisallowedPagesOutAndTheyAreRecordedWithWhy() {
    assertNull(requests.get("/private/secret"), "disallowed by robots.txt");
    assertEquals(ErrorKind.ROBOTS_DISALLOWED, sink.results().stream().filter(r -> r.url().endsWith("/private/secret"))
        .findFirst().orElseThrow().errorKind());
    assertEquals(1L, summary.skipped().get("robots"), "/private/secret");
  }

  @Test
  void redirectsAreRecordedHopByHopAndLoopsEndInTheSieve() {
    CrawlResult redirect = sink.get(a + "/redirect1");
    assertEquals(301, redirect.status());
    assertEquals(a + "/redirect2", redirect.redirectTo());
    assertEquals(a + "/c", sink.get(a + "/redirect2").redirectTo(), "fragment dropped from the Location");
    assertEquals(a + "/redirect2", sink.get(a + "/c").referrer());
    assertEquals(a + "/loop1", sink.get(a + "/loop2").redirectTo(), "the loop is stopped by the sieve");
  }

  @Test
  void serverErrorsAreRetriedAndRetryAfterIsHonoured() {
    assertEquals(3L, requests.get("/error"), "first try and two retries");
    assertEquals(ErrorKind.RETRIES_EXHAUSTED, sink.get(a + "/error").errorKind());
    assertEquals(3, sink.get(a + "/error").attempts());
    assertEquals(2L, requests.get("/throttled"), "429, then after Retry-After the page");
    CrawlResult throttled = sink.get(a + "/throttled");
    assertEquals(200, throttled.status());
    assertEquals(2, throttled.attempts());
    assertEquals(404, sink.get(a + "/missing").status());
    assertEquals(3, summary.retries(), "two for /error, one for /throttled");
  }

  @Test
  void aPageOverTheBodyCapIsCutOffYetYieldsItsLinks() {
    CrawlResult big = sink.get(a + "/big");
    assertTrue(big.truncated(), "cut off at the body cap");
    assertNull(big.errorKind(), "a truncated page is a page, not an error");
    assertEquals(BODY_CAP, big.bytes(), "read up to the cap, no further");
    assertFalse(sink.get(a + "/big-child").truncated(), "its link was followed");
    assertEquals(1, summary.truncated());
  }

  @Test
  void bodiesAreDecodedAsTheyCame() throws IOException {
    assertEquals("application/pdf", sink.get(a + "/file.pdf").contentType());
    assertEquals(gzip(GZ_PAGE).length, sink.get(a + "/gzip").bytes(), "bytes counted as received");
    assertEquals(200, sink.get(a + "/gz-child").status(), "the gzip page's link");
    assertEquals(200, sink.get(a + "/caf%C3%A9").status(), "the ISO-8859-1 page's link, in UTF-8");
  }

  @Test
  void recordsCarryDepthReferrerAndEveryLinkFound() {
    assertEquals(0, sink.get(a + "/").depth());
    assertEquals(1, sink.get(a + "/a").depth());
    assertEquals(a + "/", sink.get(a + "/a").referrer());
    assertEquals(19, sink.get(a + "/").outlinks(), "every link found, followable or not");
  }

  @Test
  void crawlDelaySpacesTheStartsOnTheSchedulersOwnClock() {
    // Crawl-delay: 1s, capped at 150ms, spaces the starts on the first origin (robots.txt is read while the first
    // page is leased, before any second lease), measured on the scheduler's own clock: server arrival times would
    // add network jitter.
    assertTrue(leasesOfA.size() >= 17, "leases: " + leasesOfA.size());
    for (int i = 1; i < leasesOfA.size(); i++) {
      long gap = leasesOfA.get(i) - leasesOfA.get(i - 1);
      assertTrue(gap >= Duration.ofMillis(150).toNanos(), "starts " + (i - 1) + " and " + i + " only " + gap + " ns apart");
    }
    long pages = requests.entrySet().stream().filter(e -> !e.getKey().equals("/robots.txt"))
        .mapToLong(Map.Entry::getValue).sum();
    assertEquals(pages, requestsOfA.size(), "every request to the site went through the scheduler as it was sent");
    for (int i = 1; i < requestsOfA.size(); i++) {
      long gap = requestsOfA.get(i) - requestsOfA.get(i - 1);
      assertTrue(gap >= Duration.ofMillis(150).toNanos(), "requests " + (i - 1) + " and " + i + " sent only " + gap
          + " ns apart");
    }
  }

  @Test
  void theSummaryAccountsForEveryUrl() {
    assertEquals(CrawlSummary.End.COMPLETED, summary.end());
    assertTrue(summary.accountsForEveryAdmittedUrl(), summary.toString());
    assertEquals(20, summary.fetched());
  }

  private static Map<String, Long> requestsByPath(WireMockServer server) {
    return server.getAllServeEvents().stream().map(ServeEvent::getRequest)
        .collect(Collectors.groupingBy(r -> r.getUrl(), TreeMap::new, Collectors.counting()));
  }

  private static void html(WireMockServer server, String path, String body) {
    server.stubFor(get(urlEqualTo(path)).willReturn(aResponse()
        .withHeader("Content-Type", "text/html; charset=utf-8").withBody(body)));
  }

  private static byte[] gzip(String s) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(s.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }
}

package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.extension.ResponseTransformerV2;
import com.github.tomakehurst.wiremock.http.Response;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.result.ErrorKind;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Endless sites end by themselves under the default guards. */
class SpiderTrapTest {
  private final WireMockServer server = new WireMockServer(options().dynamicPort().extensions(new TrapPages()));
  private String root;

  /** Pages generated from their URL: an endless calendar, fresh session ids, ever-deeper paths. */
  static final class TrapPages implements ResponseTransformerV2 {
    private static final Pattern MONTH = Pattern.compile("month=(-?\\d+)");

    @Override
    public Response transform(Response response, ServeEvent event) {
      String url = event.getRequest().getUrl();
      String body;
      if (url.startsWith("/calendar")) {
        Matcher m = MONTH.matcher(url);
        int month = m.find() ? Integer.parseInt(m.group(1)) : 0;
        body = Html.page("month " + month, "/calendar?month=" + (month + 1), "/calendar?month=" + (month - 1));
      } else if (url.startsWith("/shop")) {
        body = Html.page("shop", "/shop?sid=" + UUID.randomUUID(), "/shop;jsessionid=" + UUID.randomUUID() + "?page=2");
      } else {
        body = Html.page("deep", "x/", "../x/y/");
      }
      return Response.Builder.like(response).but().body(body).build();
    }

    @Override
    public boolean applyGlobally() {
      return false;
    }

    @Override
    public String getName() {
      return "trap-pages";
    }
  }

  @BeforeEach
  void serve() {
    server.start();
    root = "http://localhost:" + server.port();
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(404)));
    server.stubFor(any(urlPathMatching("/(calendar|shop|deep).*")).willReturn(aResponse()
        .withHeader("Content-Type", "text/html").withTransformers("trap-pages")));
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  private CrawlSummary crawl(String seed, CollectingSink sink) {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 100_000L)
        .set(Setting.MAX_DEPTH, 20).build();
    Crawler crawler = Crawler.create(settings, sink);
    CrawlSummary summary = crawler.run(List.of(seed));
    assertEquals(List.of(), crawler.workerFailures());
    return summary;
  }

  @Test
  void anEndlessCalendarEndsAtTheDepthLimit() {
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary = crawl(root + "/calendar?month=0", sink);
    // Depth 0..20 in both directions from month 0: 1 + 20 + 20 pages.
    assertEquals(41, summary.fetched());
    assertTrue(summary.notAdmitted().get("out-of-scope-depth") > 0);
  }

  @Test
  void freshSessionIdsDoNotMakeFreshPages() {
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary = crawl(root + "/shop", sink);
    assertEquals(List.of(root + "/shop", root + "/shop?page=2"),
        sink.results().stream().map(r -> r.url()).sorted().toList());
    assertEquals(CrawlSummary.End.COMPLETED, summary.end());
  }

  @Test
  void aSiteThatPutsTheSessionInTheUrlOfAVisitorWithoutCookiesIsStillCrawled() {
    server.stubFor(get(urlEqualTo("/app/")).willReturn(aResponse().withStatus(302)
        .withHeader("Location", "/app/;jsessionid=ABC123")));
    Html.serve(server, "/app/;jsessionid=ABC123", Html.page("app", "next;jsessionid=ABC123", "/php/index.php"));
    server.stubFor(get(urlEqualTo("/app/next")).willReturn(aResponse().withStatus(302)
        .withHeader("Location", "/app/next;jsessionid=DEF456")));
    Html.serve(server, "/app/next;jsessionid=DEF456", Html.page("next", "/app/;jsessionid=DEF456"));
    server.stubFor(get(urlEqualTo("/php/index.php")).willReturn(aResponse().withStatus(302)
        .withHeader("Location", "index.php?PHPSESSID=abcdef")));
    Html.serve(server, "/php/index.php?PHPSESSID=abcdef", Html.page("php"));
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary = crawl(root + "/app/", sink);
    assertEquals(List.of(
        root + "/app/ 302 " + root + "/app/;jsessionid=ABC123",
        root + "/app/;jsessionid=ABC123 200 null",
        root + "/app/next 302 " + root + "/app/next;jsessionid=DEF456",
        root + "/app/next;jsessionid=DEF456 200 null",
        root + "/php/index.php 302 " + root + "/php/index.php?PHPSESSID=abcdef",
        root + "/php/index.php?PHPSESSID=abcdef 200 null"),
        sink.results().stream().map(r -> r.url() + " " + r.status() + " " + r.redirectTo()).sorted().toList(),
        "each redirect to the URL itself with a session id is followed as sent, once");
    assertTrue(summary.accountsForEveryAdmittedUrl(), summary.toString());
  }

  @Test
  void aLinkOverTheLengthCapIsCountedAndLoggedAsATrap() {
    String longPath = "/" + "a".repeat(3_000);
    Html.serve(server, "/long", Html.page("long", longPath, "/long-ok", longPath));
    Html.serve(server, "/long-ok", Html.page("ok"));
    List<String> skipped = new CopyOnWriteArrayList<>();
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L).build();
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary = Crawler.builder(settings, sink)
        .skipLog((url, referrer, depth, reason) -> skipped.add(reason + " " + url + " " + referrer + " " + depth))
        .build().run(List.of(root + "/long"));
    assertEquals(List.of(root + "/long", root + "/long-ok"), sink.fetchedUrls());
    assertEquals(1L, summary.notAdmitted().get("too-long"), "once per page, however often it links it");
    assertEquals(List.of("too-long " + longPath + " " + root + "/long 1"), skipped);
  }

  @Test
  void everDeeperPathsStopAtTheRepeatedSegmentGuard() {
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary = crawl(root + "/deep/", sink);
    assertTrue(summary.fetched() < 40, "fetched " + summary.fetched());
    assertTrue(summary.notAdmitted().get("out-of-scope-trap") > 0);
    sink.results().forEach(r -> assertEquals(null, r.errorKind()));
  }

  @Test
  void aServerThatNeverAnswersHoldsOneFetchUntilTheCallDeadline() {
    server.stubFor(get(urlEqualTo("/hang")).willReturn(aResponse().withFixedDelay(60_000)));
    server.stubFor(get(urlEqualTo("/trickle")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody(Html.page("trickle") + " ".repeat(10_000)).withChunkedDribbleDelay(100, 60_000)));
    server.stubFor(get(urlEqualTo("/start")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody(Html.page("start", "/hang", "/trickle", "/calendar?month=0"))));
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L)
        .set(Setting.MAX_DEPTH, 3).set(Setting.CALL_TIMEOUT, Duration.ofSeconds(2))
        .set(Setting.READ_TIMEOUT, Duration.ofSeconds(1)).set(Setting.MAX_RETRIES, 0).build();
    CollectingSink sink = new CollectingSink();
    Crawler crawler = Crawler.create(settings, sink);
    long start = System.nanoTime();
    CrawlSummary summary = crawler.run(List.of(root + "/start"));
    long seconds = (System.nanoTime() - start) / 1_000_000_000L;

    assertEquals(ErrorKind.TIMEOUT, sink.get(root + "/hang").errorKind());
    assertEquals(ErrorKind.TIMEOUT, sink.get(root + "/trickle").errorKind());
    assertTrue(sink.get(root + "/trickle").fetchMillis() < 5_000, "cut off at the whole-call deadline");
    assertEquals(1 + 2 + 5, summary.fetched(), "the calendar pages (depth 1 to 3) were fetched meanwhile");
    assertTrue(seconds < 30, "took " + seconds + " s");
  }
}

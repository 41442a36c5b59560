package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class StopAndLimitsTest {
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite();
  private final WireMockServer server = loopback.server();
  private String root;

  @BeforeEach
  void serve() {
    root = loopback.root();
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(404)));
    List<String> links = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      links.add("/p" + i);
    }
    Html.serve(server, "/", Html.page("root", links.toArray(String[]::new)));
    server.stubFor(get(urlPathMatching("/p\\d+")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody(Html.page("leaf")).withFixedDelay(300)));
  }

  @Test
  void aStopEndsTheCrawlQuicklyAndAccountsForEveryAdmittedUrl() {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L)
        .set(Setting.HOST_CONCURRENCY, 4).set(Setting.CONCURRENCY, 4).build();
    AtomicReference<Crawler> crawler = new AtomicReference<>();
    CollectingSink sink = new CollectingSink(r -> {
      if (r.url().endsWith("/p3")) {
        crawler.get().stop(); // from a worker thread, as a signal handler would from another
      }
    });
    crawler.set(Crawler.create(settings, sink));
    long start = System.nanoTime();
    CrawlSummary summary = crawler.get().run(List.of(root + "/"));
    long millis = (System.nanoTime() - start) / 1_000_000;

    assertEquals(CrawlSummary.End.STOPPED, summary.end());
    assertTrue(millis < 10_000, "stopped after " + millis + " ms");
    assertTrue(summary.notFetched() > 100, "most leaves were never fetched: " + summary.notFetched());
    assertTrue(summary.accountsForEveryAdmittedUrl(),
        "every admitted URL is fetched, skipped or counted as not fetched: " + summary);
    assertEquals(List.of(), crawler.get().workerFailures());
  }

  @Test
  void maxPagesStopsAfterThatManyFetches() {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L)
        .set(Setting.HOST_CONCURRENCY, 4).set(Setting.MAX_PAGES, 10L).build();
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary = Crawler.create(settings, sink).run(List.of(root + "/"));
    assertEquals(CrawlSummary.End.PAGE_LIMIT, summary.end());
    assertEquals(10, summary.fetched());
    assertEquals(10, sink.results().size());
    assertTrue(summary.accountsForEveryAdmittedUrl(), summary.toString());
  }

  @Test
  void maxTimeEndsTheRunOnTheCrawlsOwnClock() {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L).set(Setting.HOST_CONCURRENCY, 4).set(Setting.CONCURRENCY, 4)
        .set(Setting.MAX_TIME, Duration.ofMinutes(30)).build();
    FakeClock clock = new FakeClock();
    CollectingSink sink = new CollectingSink(r -> {
      if (r.url().endsWith("/p3")) {
        clock.advance(Duration.ofMinutes(31));
      }
    });
    CrawlSummary summary = Crawler.builder(settings, sink).ticker(clock).clock(clock).build()
        .run(List.of(root + "/"));
    assertEquals(CrawlSummary.End.TIME_LIMIT, summary.end());
    assertTrue(summary.notFetched() > 100, "most leaves were never fetched: " + summary.notFetched());
    assertTrue(summary.accountsForEveryAdmittedUrl(), summary.toString());
  }

  @Test
  void maxPagesPerHostIsABudgetPerHost() {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L)
        .set(Setting.HOST_CONCURRENCY, 8).set(Setting.CONCURRENCY, 8).set(Setting.MAX_PAGES_PER_HOST, 25L).build();
    CrawlSummary summary = Crawler.create(settings, new CollectingSink()).run(List.of(root + "/"));
    assertEquals(25, summary.fetched());
    assertEquals(201 - 25, summary.skipped().get("host-budget"));
  }

  @Test
  void aStopCutsOffABodyThatTricklesAfterTheGracePeriod() throws Exception {
    server.stubFor(get(urlEqualTo("/trickle")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody("x".repeat(50_000)).withChunkedDribbleDelay(500, 300_000))); // five minutes for 50 KB
    Html.serve(server, "/t", Html.page("t", "/trickle"));
    java.util.concurrent.CountDownLatch trickling = new java.util.concurrent.CountDownLatch(1);
    server.addMockServiceRequestListener((request, response) -> {
      if (request.getUrl().equals("/trickle")) {
        trickling.countDown();
      }
    });
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L).set(Setting.CALL_TIMEOUT, Duration.ofMinutes(10))
        .set(Setting.READ_TIMEOUT, Duration.ofMinutes(10)).build();
    FakeClock clock = new FakeClock(); // the crawl's, moved by the test: no wait for the grace period
    Crawler crawler = Crawler.builder(settings, new CollectingSink()).ticker(clock).clock(clock).build();
    java.util.concurrent.CompletableFuture<CrawlSummary> run =
        java.util.concurrent.CompletableFuture.supplyAsync(() -> crawler.run(List.of(root + "/t")));
    assertTrue(trickling.await(1, java.util.concurrent.TimeUnit.MINUTES), "the trickling body was requested");
    crawler.stop();
    clock.advance(Duration.ofSeconds(Crawler.STOP_GRACE_SECONDS + 1));
    // Without the cut-off the stop would wait for the body: five minutes (the timeouts are ten).
    CrawlSummary summary = run.get(2, java.util.concurrent.TimeUnit.MINUTES);
    assertEquals(CrawlSummary.End.STOPPED, summary.end());
    assertEquals(1, summary.notFetched(), "the cut-off page is left for a resumed crawl, not recorded as an error");
    assertTrue(summary.accountsForEveryAdmittedUrl(), summary.toString());
  }
}

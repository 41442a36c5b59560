package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.crawler.home.MemoryHome;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.home.MemoryHome;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.scope.ScopeSites;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import io.sievecrawl.sieve.testing.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Seeds are queued while the crawl runs: the first fetch does not wait for the last seed, and workers that empty the
 * frontier before the seeds are all queued wait for the rest instead of ending the crawl.
 */
class SeedFeedingTest {
  private static final int SEEDS = 2_500;
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite();
  private final WireMockServer server = loopback.server();

  @BeforeEach
  void serve() {
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(404)));
    server.stubFor(get(urlPathMatching("/p\\d+")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody(Html.page("leaf"))));
  }

  @Test
  void seedsAreQueuedWhileTheCrawlRunsAndItWaitsForTheLast() {
    CountDownLatch firstFetched = new CountDownLatch(1);
    CountDownLatch twoBatchesFetched = new CountDownLatch(2_000);
    CollectingSink sink = new CollectingSink(r -> {
      firstFetched.countDown();
      twoBatchesFetched.countDown();
    });
    AtomicInteger passes = new AtomicInteger();
    Seeds seeds = action -> {
      boolean queuing = passes.incrementAndGet() == 2; // the first pass reads the sites in scope
      for (int i = 0; i < SEEDS; i++) {
        if (queuing && i == 1_000) {
          await(firstFetched); // a page was fetched with only the first batch queued
        }
        if (queuing && i == 2_000) {
          await(twoBatchesFetched); // the frontier is empty; the workers must wait for the rest
        }
        action.accept("http://localhost:" + server.port() + "/p" + i);
      }
    };
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 10_000L).set(Setting.HOST_CONCURRENCY, 4).set(Setting.CONCURRENCY, 4).build();
    Crawler crawler = Crawler.create(settings, sink);
    CrawlSummary summary = crawler.run(seeds);

    assertEquals(CrawlSummary.End.COMPLETED, summary.end(), summary.toString());
    assertEquals(SEEDS, summary.fetched());
    assertEquals(2, passes.get());
    assertTrue(summary.accountsForEveryAdmittedUrl(), summary.toString());
    assertEquals(List.of(), crawler.workerFailures());
  }

  /**
   * An agent that joins a shared crawl runs without seeds: nothing to say of crawl.include, empty or not. Seeds of
   * which none matches it are warned of.
   */
  @Test
  void aRunWithoutSeedsDoesNotWarnThatNoSeedMatchesCrawlInclude() {
    ch.qos.logback.classic.Logger seedLog =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(SeedQueue.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged =
        new ch.qos.logback.core.read.ListAppender<>();
    logged.start();
    seedLog.addAppender(logged);
    try {
      for (String include : List.of("", "/docs/")) {
        CrawlSettings settings = CrawlSettings.builder().parse(Setting.INCLUDE, include, "test")
            .set(Setting.FILTER_N, 1_000L).build();
        CrawlSummary summary = Crawler.create(settings, new CollectingSink()).run(List.of());
        assertEquals(CrawlSummary.End.COMPLETED, summary.end(), summary.toString());
      }
      assertEquals(List.of(), warnings(logged));

      CrawlSettings settings = CrawlSettings.builder().parse(Setting.INCLUDE, "/docs/", "test")
          .set(Setting.FILTER_N, 1_000L).set(Setting.DELAY, Duration.ZERO).build();
      Crawler.create(settings, new CollectingSink()).run(List.of("http://localhost:" + server.port() + "/p1"));
      assertEquals(List.of("no seed matches crawl.include (/docs/): the seeds are fetched, but of the links found only"
          + " those it matches; to crawl a part of a site, start from a page in it"), warnings(logged));
    } finally {
      seedLog.detachAppender(logged);
    }
  }

  private static List<String> warnings(
      ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged) {
    return logged.list.stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
        .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
  }

  @Test
  void seedsThatCannotBeReadOrThrowAnErrorWhileQueuedFailTheCrawlRatherThanEndIt() {
    for (Throwable thrown : List.of(new IOException("disk gone"), new AssertionError("a bug"))) {
      AtomicInteger passes = new AtomicInteger();
      Seeds seeds = action -> {
        boolean queuing = passes.incrementAndGet() == 2;
        for (int i = 0; i < SEEDS; i++) {
          if (queuing && i == 1_500) {
            if (thrown instanceof IOException e) {
              throw e;
            }
            throw (Error) thrown;
          }
          action.accept("http://localhost:" + server.port() + "/p" + i);
        }
      };
      CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO)
          .set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 10_000L).set(Setting.HOST_CONCURRENCY, 4).build();
      CrawlSummary summary;
      List<String> logged;
      try (LogCapture log = LogCapture.of("io.sievecrawl")) { // the failure is provoked: asserted on, not printed
        summary = Crawler.create(settings, new CollectingSink()).run(seeds);
        logged = log.lines();
      }
      String stops = "ERROR the crawl stops: " + (thrown instanceof IOException
          ? "UncheckedIOException: cannot read the seeds: disk gone" : "AssertionError: a bug");
      assertTrue(logged.stream().anyMatch(l -> l.startsWith(stops)), logged.toString());
      assertEquals(CrawlSummary.End.FAILED, summary.end(), thrown + ": " + summary);
      if (thrown instanceof IOException) {
        assertEquals("cannot read the seeds: disk gone", summary.failure().getMessage());
      } else {
        assertEquals(thrown, summary.failure());
      }
    }
  }

  @Test
  void theSeedsSitesArePublishedToOtherAgentsAThousandAtATime() {
    List<Integer> batches = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.concurrent.atomic.AtomicReference<Crawler> crawler = new java.util.concurrent.atomic.AtomicReference<>();
    ScopeSites shared = new ScopeSites() {
      @Override
      public java.util.Collection<String> load() {
        return List.of();
      }

      @Override
      public void publish(String site) {
        batches.add(1); // a site a seed redirect brings in: none here
      }

      @Override
      public void publishAll(java.util.Collection<String> sites) {
        batches.add(sites.size());
        if (batches.stream().mapToInt(Integer::intValue).sum() == SEEDS) {
          crawler.get().stop(); // all published: nothing to fetch in this test
        }
      }
    };
    List<String> seeds = new java.util.ArrayList<>();
    for (int i = 0; i < SEEDS; i++) {
      seeds.add("http://site" + i + ".example/"); // 2,500 sites
    }
    CrawlSettings settings = CrawlSettings.builder().set(Setting.FILTER_N, 10_000L).build();
    crawler.set(Crawler.builder(settings, new CollectingSink())
        .home(MemoryHome.of(settings).sharingScopeWith(shared)).build());
    CrawlSummary summary = crawler.get().run(seeds);
    assertEquals(0, summary.fetched());
    assertEquals(List.of(1_000, 1_000, 500), batches.subList(0, 3), batches.toString());
  }

  private static void await(CountDownLatch latch) throws IOException {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        throw new IOException("the crawl did not get that far while seeds were still being queued");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}

package io.sievecrawl.crawler.home;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.redis.RedisCrawl;
import io.sievecrawl.sieve.redis.RedisServer;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link CrawlHomeContract} for a crawl shared through Redis (a real redis-server on a free loopback port):
 * reopened, it is another agent joining.
 */
class SharedHomeIT extends CrawlHomeContract {
  private RedisServer redis;
  private int crawls;

  @BeforeEach
  void startRedis() throws Exception {
    redis = RedisServer.start(null);
  }

  @AfterEach
  void stopRedis() {
    redis.close();
  }

  @Override
  CrawlHome create(CrawlSettings settings) throws Exception {
    return SharedCrawls.startOrJoin(redis.uri(), "crawl-" + crawls++, settings, 4, Clock.systemUTC(),
        Ticker.SYSTEM);
  }

  /** Starting a crawl that exists joins it; its identity decides, by the one rule every home follows. */
  @Test
  void anAgentStartingAnExistingCrawlWithAnotherNOrPIsRefusedInOneLine() throws Exception {
    CrawlSettings settings = CrawlSettings.defaults();
    SharedCrawls.startOrJoin(redis.uri(), "sized", settings, 4, Clock.systemUTC(), Ticker.SYSTEM).close();
    CrawlSettings smaller = settings.toBuilder().set(Setting.FILTER_P, 0.01).build();
    SharedHomeException e = assertThrows(SharedHomeException.class, () -> SharedCrawls.startOrJoin(redis.uri(),
        "sized", smaller, 4, Clock.systemUTC(), Ticker.SYSTEM));
    assertEquals(SharedHomeException.Reason.MISMATCH, e.reason());
    assertEquals("filter.p cannot change when an agent joins: the shared crawl 'sized' in " + redis.uri()
        + " was sized for p = " + settings.filter().falsePositiveRate() + " (given set: 0.01); join it with the same"
        + " n and p (or with 'sievecrawl join'), or choose another --crawl-name",
        e.getMessage().replaceAll("given [^:]*:", "given set:"));
    try (SharedHome joined = SharedCrawls.startOrJoin(redis.uri(), "sized", settings, 4, Clock.systemUTC(),
        Ticker.SYSTEM)) {
      assertEquals(CrawlIdentity.of(settings), joined.identity(), "the same settings join");
    }
  }

  /**
   * Two agents: A ends first and reads every agent's counts while B, whose last pages are not sent yet, is still
   * ending. A completed crawl's counts wait for B (ended here during A's first pause), and are then exact; past the
   * bound, or when the run did not complete, they are what was sent so far, with the agents still running.
   */
  @Test
  void theCountsAtTheEndOfACompletedCrawlWaitForTheOtherAgentsLastCounts() throws Exception {
    try (SharedHome a = SharedCrawls.startOrJoin(redis.uri(), "ending", SETTINGS, 4, Clock.systemUTC(),
            Ticker.SYSTEM);
        SharedHome b = SharedCrawls.startOrJoin(redis.uri(), "ending", SETTINGS, 4, Clock.systemUTC(),
            Ticker.SYSTEM)) {
      a.runStarts(RUN);
      b.runStarts(RUN);
      ResultSink pagesA = a.recording(result -> {});
      ResultSink pagesB = b.recording(result -> {});
      for (int i = 0; i < 3; i++) {
        pagesA.accept(page("https://a.example/" + i));
      }
      for (int i = 0; i < 2; i++) {
        pagesB.accept(page("https://b.example/" + i));
      }
      a.runEnded(CrawlSummary.End.COMPLETED, a.savedState());

      SharedHome.AllAgents partial = a.countsAtEnd(false, Duration.ofSeconds(5), d -> {
        throw new AssertionError("a run that did not complete does not wait");
      });
      assertEquals(3L, partial.counters().get("pages"), "B's pages are not sent yet");
      assertEquals(1, partial.othersRunning());

      List<Duration> pauses = new ArrayList<>();
      SharedHome.AllAgents all = a.countsAtEnd(true, Duration.ofSeconds(5), d -> {
        if (pauses.isEmpty()) {
          b.runEnded(CrawlSummary.End.COMPLETED, b.savedState()); // sends its last counts, then leaves
        }
        pauses.add(d);
      });
      assertEquals(5L, all.counters().get("pages"), "every agent's pages");
      assertEquals(0, all.othersRunning());
      assertEquals(1, pauses.size());
    }
  }

  /** An agent that never ends (its heartbeat still young) holds the counts at the end up for the bound only. */
  @Test
  void theCountsAtTheEndWaitForAnAgentThatDoesNotEndOnlyUpToTheBound() throws Exception {
    FakeClock clock = new FakeClock();
    try (SharedHome a = SharedCrawls.startOrJoin(redis.uri(), "stuck", SETTINGS, 4, Clock.systemUTC(), clock);
        SharedHome b = SharedCrawls.startOrJoin(redis.uri(), "stuck", SETTINGS, 4, Clock.systemUTC(), clock)) {
      a.runStarts(new RunOptions(SETTINGS, Setting.FILTER_N.key(), clock));
      b.runStarts(new RunOptions(SETTINGS, Setting.FILTER_N.key(), clock));
      a.runEnded(CrawlSummary.End.COMPLETED, a.savedState());
      List<Duration> pauses = new ArrayList<>();
      SharedHome.AllAgents all = a.countsAtEnd(true, Duration.ofSeconds(5), d -> {
        pauses.add(d);
        clock.advance(d);
      });
      assertEquals(1, all.othersRunning(), "B is still running");
      assertEquals(Duration.ofSeconds(5), pauses.stream().reduce(Duration.ZERO, Duration::plus), "waited the bound");
      b.runEnded(CrawlSummary.End.COMPLETED, b.savedState());
    }
  }

  /** A stopping agent (Ctrl-C) waits no longer for the others' last counts: it reports what it has. */
  @Test
  void anAgentToldToStopWaitsNoLongerForTheOthersCounts() throws Exception {
    FakeClock clock = new FakeClock();
    try (SharedHome a = SharedCrawls.startOrJoin(redis.uri(), "told", SETTINGS, 4, Clock.systemUTC(), clock);
        SharedHome b = SharedCrawls.startOrJoin(redis.uri(), "told", SETTINGS, 4, Clock.systemUTC(), clock)) {
      a.runStarts(new RunOptions(SETTINGS, Setting.FILTER_N.key(), clock));
      b.runStarts(new RunOptions(SETTINGS, Setting.FILTER_N.key(), clock));
      a.runEnded(CrawlSummary.End.COMPLETED, a.savedState());
      List<Duration> pauses = new ArrayList<>();
      SharedHome.AllAgents all = a.countsAtEnd(true, Duration.ofSeconds(5), d -> {
        pauses.add(d);
        clock.advance(d);
        a.stopWaiting();
      });
      assertEquals(1, all.othersRunning(), "B is still running");
      assertEquals(1, pauses.size(), "stopped after the first pause");
      b.runEnded(CrawlSummary.End.COMPLETED, b.savedState());
    }
  }

  private static CrawlResult page(String url) {
    return new CrawlResult(url, 200, "text/html", null, 100, false, 0, null, Instant.parse("2026-11-28T10:00:00Z"),
        5, 0, null, null, null, 1);
  }

  @Override
  CrawlHome reopen(CrawlHome closed) throws Exception {
    closed.close();
    return SharedHome.of(RedisCrawl.join(redis.uri(), ((SharedHome) closed).name(), Ticker.SYSTEM));
  }

  @Override
  boolean keepsTotals() {
    return false;
  }

  @Override
  boolean sharesScope() {
    return true;
  }

  @Override
  boolean resizable() {
    return false;
  }

  @Override
  Set<String> visitsKept(CrawlHome home) {
    return Set.of();
  }

  @Override
  boolean keepsVisits() {
    return false;
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.CrawlState;
import io.sievecrawl.crawler.Crawler;
import io.sievecrawl.crawler.home.MemoryHome;
import io.sievecrawl.crawler.report.CrawlTotals;
import io.sievecrawl.sieve.testing.FakeClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProgressReporterTest {
  /** A resumed crawl counts the earlier runs' pages as fetched, not as fetched in its first ten seconds. */
  @Test
  void theFirstLineAfterAResumeCountsOnlyThisRunsPagesInItsRate() {
    CrawlTotals earlier = new CrawlTotals(1, 10_390, 0, 0, Map.of(), Map.of(), Map.of(), Map.of(), 10_390,
        Duration.ofMinutes(1));
    CrawlState resumed = new CrawlState(earlier, java.util.Set.of(), CrawlState.fresh().pagesPerOrigin(), List.of());
    Crawler crawler = Crawler.builder(CrawlSettings.defaults(), result -> { })
        .home(MemoryHome.of(CrawlSettings.defaults()).withState(resumed)).build();
    FakeClock clock = new FakeClock();
    StatusLine status = StatusLine.of(new PrintStream(new ByteArrayOutputStream()), false, clock);
    try (ProgressReporter reporter = new ProgressReporter(crawler, status, false, clock)) {
      clock.advance(Duration.ofSeconds(10));
      List<String> fields = reporter.fieldsNow();
      assertEquals("fetched 10,390", fields.get(1));
      assertEquals("0 p/s", fields.get(3), "nothing fetched in this run's first ten seconds");
    }
  }
}

package io.sievecrawl.crawler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.home.MemoryHome;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.home.MemoryHome;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.bench.SyntheticSite;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomSizing;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.disk.DiskFrontier;
import io.sievecrawl.sieve.disk.FrontierOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A site of 1,235 pages crawled with filter.n = 200: a filter alone loses pages; confirmed, every page is fetched
 * once and the URLs rescued are exactly those the filter took for seen wrongly.
 *
 * <p>The exact count: the filter's bits after t admissions are those of the first t admitted URLs (a refused
 * duplicate adds none), so the filter took admission t for seen exactly when a filter holding the first t - 1
 * admitted URLs contains it. With one fetch at a time from one origin's FIFO queue, the records come in admission
 * order, and replaying their URLs into a twin filter counts those admissions.
 */
class ConfirmedFilterTest {
  private static final int PAGES = 1_235;
  private static final long N = 200;

  @TempDir Path dir;

  private static CrawlSettings settings(boolean confirm) {
    return CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.CONCURRENCY, 1).set(Setting.FILTER_N, N).set(Setting.FILTER_CONFIRM, confirm).build();
  }

  @Test
  void aFilterAloneLosesPagesPastItsCapacity() throws IOException {
    try (SyntheticSite site = SyntheticSite.start(PAGES, 8)) {
      CollectingSink sink = new CollectingSink();
      CrawlSummary summary = Crawler.builder(settings(false), sink).build().run(List.of(site.rootUrl()));
      assertTrue(site.pagesNeverServed() > 100, "pages lost: " + site.pagesNeverServed());
      assertEquals(0, summary.sieve().rescued());
    }
  }

  @Test
  void onTheHeapEveryPageIsFetchedOnceAndEveryRescueCounted() throws IOException {
    crawlAndCheck(null);
  }

  @Test
  void onDiskEveryPageIsFetchedOnceAndEveryRescueCounted() throws IOException {
    try (DiskFrontier<CrawlTask> frontier = DiskFrontier.open(dir, N, 0.001, CrawlTask.CODEC, CrawlTask::key,
        CrawlTask::queue, FrontierOptions.defaults("filter.n").withConfirmation(true), Ticker.SYSTEM)) {
      frontier.checkpoint(); // an early checkpoint, so that later look-ups go to a run on disk as well
      crawlAndCheck(frontier);
    }
  }

  private void crawlAndCheck(Frontier<CrawlTask> frontier) throws IOException {
    try (SyntheticSite site = SyntheticSite.start(PAGES, 8)) {
      CollectingSink sink = new CollectingSink();
      CrawlerBuilder crawler = Crawler.builder(settings(true), sink);
      if (frontier != null) {
        crawler.home(MemoryHome.over(settings(true), frontier));
      }
      CrawlSummary summary = crawler.build().run(List.of(site.rootUrl()));
      assertEquals(PAGES, site.pagesServedOnce(), "every page fetched");
      assertEquals(0, site.repeatedRequests(), "none twice");
      BloomFilter twin = BloomFilter.create(BloomSizing.of(N, 0.001), BloomFilter.DEFAULT_SEED,
          BloomFilter.Hashing.FINGERPRINT);
      long wronglySeen = 0;
      for (CrawlResult result : sink.results()) {
        if (!twin.add(result.url())) {
          wronglySeen++;
        }
      }
      assertEquals(PAGES, sink.results().size());
      assertTrue(wronglySeen > 200, "the filter alone would have lost " + wronglySeen);
      assertTrue(summary.sieve().confirmed());
      assertEquals(wronglySeen, summary.sieve().rescued());
    }
  }
}

package io.sievecrawl.crawler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.bench.SyntheticSites;
import io.sievecrawl.crawler.report.CrawlSummary;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Many sites on one server, their names pinned to it (fetch.resolve): each is crawled whole, each page once. */
class BroadCrawlTest {
  @Test
  void manySitesOnOneServerAreEachCrawledWholeThroughTheirPinnedNames() throws Exception {
    try (SyntheticSites sites = SyntheticSites.start(40, 15, 4)) {
      CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
          .set(Setting.FILTER_N, 10_000L).set(Setting.CONCURRENCY, 16)
          .parse(Setting.RESOLVE, sites.pins(), "test").build();
      CollectingSink sink = new CollectingSink();
      CrawlSummary summary = Crawler.create(settings, sink).run(sites.rootUrls());
      assertEquals(CrawlSummary.End.COMPLETED, summary.end(), summary.toString());
      int[] expected = new int[40];
      Arrays.fill(expected, 15);
      assertEquals(Arrays.toString(expected), Arrays.toString(sites.pagesServedPerSite()));
      assertEquals(0, sites.repeatedRequests());
      assertEquals(40 * 15, summary.fetched());
    }
  }

  /** As a browser keeps a connection per site it shows: more sites than the concurrency, and no reconnecting. */
  @Test
  void aBroadCrawlOpensOneConnectionPerSiteNotOnePerPage() throws Exception {
    try (SyntheticSites sites = SyntheticSites.start(300, 8, 3)) {
      CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
          .set(Setting.FILTER_N, 10_000L).set(Setting.CONCURRENCY, 8)
          .parse(Setting.RESOLVE, sites.pins(), "test").build();
      CrawlSummary summary = Crawler.create(settings, new CollectingSink()).run(sites.rootUrls());
      assertEquals(300 * 8, summary.fetched());
      assertEquals(300, summary.connections(), "robots.txt and every page of a site over one connection");
      assertEquals(0, summary.tlsHandshakes());
    }
  }
}

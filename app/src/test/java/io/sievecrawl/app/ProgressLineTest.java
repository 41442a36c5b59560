package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sievecrawl.crawler.CrawlProgress;
import org.junit.jupiter.api.Test;

class ProgressLineTest {
  @Test
  void aPoliteCrawlOfOneSiteSaysTheDelayIsWhatPacesIt() {
    CrawlProgress p = new CrawlProgress(12, 1_208, 0, 0, 480_000, 0.01, 1e-9,
        new CrawlProgress.Origins(0, 1, 0, 0, true));
    assertEquals("fetched 12 | queued 1,208 | 1 p/s | 0.5 MB/s | in flight 0 | errors 0 | origins 1 on delay"
        + " | paced by the politeness delay | 12s", ProgressReporter.line(p, 1, 0.48, 12));
  }

  @Test
  void aBroadCrawlCountsItsOriginsByWhatTheyWaitFor() {
    CrawlProgress p = new CrawlProgress(29_032, 170_968, 12, 3, 1_000_000_000L, 0.2, 1e-5,
        new CrawlProgress.Origins(40, 951, 6, 3, false));
    assertEquals("fetched 29,032 | queued 170,968 | 241 p/s | 8.4 MB/s | in flight 12 | errors 3 | origins 40 due,"
        + " 951 on delay, 6 paused, 3 given up | 2m05s", ProgressReporter.line(p, 241.1, 8.4, 125));
    assertEquals("3h02m", ProgressReporter.elapsed(3 * 3600 + 2 * 60 + 7));
  }

  @Test
  void nothingWaitingIsSaidSo() {
    CrawlProgress p = new CrawlProgress(5, 0, 2, 0, 0, 0, 0, new CrawlProgress.Origins(0, 0, 0, 0, false));
    assertEquals("fetched 5 | queued 0 | 0 p/s | 0.0 MB/s | in flight 2 | errors 0 | origins none waiting"
        + " | waiting for 2 slow responses | 4s", ProgressReporter.line(p, 0, 0, 4));
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sievecrawl.crawler.report.CrawlProgress;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressLineTest {
  private static final CrawlProgress BROAD = new CrawlProgress(29_032, 170_968, 12, 3, 1_000_000_000L, 0.2, 1e-5,
      new CrawlProgress.Origins(40, 951, 6, 3, false));

  @Test
  void aPoliteCrawlOfOneSiteSaysTheDelayIsWhatPacesIt() {
    CrawlProgress p = new CrawlProgress(12, 1_208, 0, 0, 480_000, 0.01, 1e-9,
        new CrawlProgress.Origins(0, 1, 0, 0, true));
    assertEquals("12s | fetched 12 | errors 0 | paced by politeness | 1 p/s | queued 1,208"
        + " | in flight 0 | 0.5 MB/s | origins 1 on delay", line(p, 1, 0.48, 12));
  }

  @Test
  void theReasonComesAheadOfTheThroughputAtEveryWidth() {
    CrawlProgress p = new CrawlProgress(1_208, 20, 0, 0, 480_000, 0.01, 1e-9,
        new CrawlProgress.Origins(0, 1, 0, 0, true));
    List<String> fields = ProgressLine.fields(p, 1, 0.48, 1_220);
    assertEquals("20m20s | fetched 1,208 | errors 0 | paced by politeness", ProgressLine.fit(fields, 60));
    assertEquals("20m20s | fetched 1,208 | errors 0 | paced by politeness | 1 p/s | queued 20",
        ProgressLine.fit(fields, 80));
    assertEquals("20m20s | fetched 1,208 | errors 0 | paced by politeness | 1 p/s | queued 20 | in flight 0"
        + " | 0.5 MB/s", ProgressLine.fit(fields, 120));
  }

  @Test
  void aBroadCrawlCountsItsOriginsByWhatTheyWaitFor() {
    assertEquals("2m05s | fetched 29,032 | errors 3 | 241 p/s | queued 170,968 | in flight 12 | 8.4 MB/s"
        + " | origins 40 due, 951 on delay, 6 paused, 3 given up", line(BROAD, 241.1, 8.4, 125));
    assertEquals("3h02m", ProgressLine.elapsed(3 * 3600 + 2 * 60 + 7));
  }

  @Test
  void nothingWaitingIsSaidSo() {
    CrawlProgress p = new CrawlProgress(5, 0, 2, 0, 0, 0, 0, new CrawlProgress.Origins(0, 0, 0, 0, false));
    assertEquals("4s | fetched 5 | errors 0 | waiting on 2 responses | 0 p/s | queued 0 | in flight 2"
        + " | 0.0 MB/s | origins none waiting", line(p, 0, 0, 4));
  }

  @Test
  void ratesOfThousandsTakeSeparatorsToo() {
    CrawlProgress p = new CrawlProgress(1_500_000, 2_000_000, 1_024, 12_345, 0, 0, 0,
        new CrawlProgress.Origins(1_200, 0, 0, 0, false));
    assertEquals("1,000h00m | fetched 1,500,000 | errors 12,345 | 1,250 p/s | queued 2,000,000 | in flight 1,024"
        + " | 1,024.5 MB/s | origins 1,200 due", line(p, 1_250, 1_024.5, 3_600_000));
  }

  @Test
  void aNarrowTerminalKeepsTheMostImportantFieldsWhole() {
    List<String> fields = ProgressLine.fields(BROAD, 241.1, 8.4, 125);
    assertEquals("2m05s | fetched 29,032 | errors 3", ProgressLine.fit(fields, 40));
    assertEquals("2m05s | fetched 29,032 | errors 3 | 241 p/s", ProgressLine.fit(fields, 60));
    assertEquals("2m05s | fetched 29,032 | errors 3 | 241 p/s | queued 170,968 | in flight 12",
        ProgressLine.fit(fields, 80));
    assertEquals("2m05s | fetched 29,032 | errors 3 | 241 p/s | queued 170,968 | in flight 12 | 8.4 MB/s",
        ProgressLine.fit(fields, 120));
    assertEquals(ProgressLine.line(fields), ProgressLine.fit(fields, 200));
  }

  @Test
  void theLastColumnStaysFreeSoTheTerminalDoesNotWrap() {
    List<String> fields = List.of("12s", "fetched 5");
    assertEquals("12s", ProgressLine.fit(fields, "12s | fetched 5".length()));
    assertEquals("12s | fetched 5", ProgressLine.fit(fields, "12s | fetched 5".length() + 1));
  }

  @Test
  void aFirstFieldWiderThanTheTerminalIsCut() {
    assertEquals("1,000h", ProgressLine.fit(List.of("1,000h00m", "fetched 5"), 7));
  }

  private static String line(CrawlProgress p, double pagesPerSecond, double megabytesPerSecond, long seconds) {
    return ProgressLine.line(ProgressLine.fields(p, pagesPerSecond, megabytesPerSecond, seconds));
  }
}

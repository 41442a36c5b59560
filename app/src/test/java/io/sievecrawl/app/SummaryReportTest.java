package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.report.CrawlTotals;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.sieve.SieveStats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SummaryReportTest {
  @Test
  void countsAndTimesAreWrittenForPeople() {
    List<String> lines = SummaryReport.lines(summary(Duration.ofSeconds(125), 14), SummaryReport.NextRun.RESUME,
        10_000_000);
    assertEquals("crawl stopped: 123,456 pages in 2m05s (987.6 pages/s), 1.23GB read", lines.get(0));
    assertTrue(lines.contains("  errors by kind:  connect 1,204, timeout 3"), lines.toString());
    assertTrue(lines.contains("  URL filter:      about 130,000 distinct URLs seen, capacity n = 10,000,000; URLs"
        + " rescued from false positives by the exact store: 42"), lines.toString());
    assertTrue(lines.get(5).endsWith(", and 4 more"), lines.get(5));
    assertEquals("  whole crawl:     3 runs, 1,234,567 pages, 12.35GB read, 1h01m crawling",
        lines.get(lines.size() - 1));
  }

  @Test
  void pagesAndRequisitesAreCountedApart() {
    CrawlSummary s = summary(Duration.ofSeconds(125), 0);
    assertEquals("crawl stopped: 100,000 pages and 23,456 requisites in 2m05s (800.0 pages/s, 987.6 with"
        + " requisites), 1.23GB read",
        SummaryReport.lines(withRequisites(s, 23_456), SummaryReport.NextRun.RESUME, 10_000_000).get(0));
    assertTrue(SummaryReport.lines(withRequisites(s, 1), SummaryReport.NextRun.RESUME, 10_000_000).get(0)
        .startsWith("crawl stopped: 123,455 pages and 1 requisite in "));
  }

  private static CrawlSummary withRequisites(CrawlSummary s, long requisites) {
    return new CrawlSummary(s.end(), s.fetched(), requisites, s.responses(), s.byStatusClass(), s.errors(), s.skipped(),
        s.notAdmitted(), s.visits(), s.retries(), s.bytes(), s.truncated(), s.connections(), s.tlsHandshakes(),
        s.carriedOver(), s.admitted(),
        s.notFetched(), s.givenUp(), s.origins(), s.sieve(), s.totals(), s.elapsed(), s.failure());
  }

  @Test
  void aShortRunIsTimedToTheTenthOfASecond() {
    assertTrue(SummaryReport.lines(summary(Duration.ofMillis(12_340), 0), SummaryReport.NextRun.RESUME,
        10_000_000).get(0).contains(" in 12.3 s ("));
    assertEquals("12.3 s", SummaryReport.took(Duration.ofMillis(12_340)));
    assertEquals("1m00s", SummaryReport.took(Duration.ofSeconds(60)));
    assertEquals("1,234h00m", SummaryReport.took(Duration.ofHours(1_234)));
  }

  @Test
  void onANarrowTerminalTheSummaryIsWrappedAtWordsAndIndented() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StatusLine status = new StatusLine(new PrintStream(bytes, true, StandardCharsets.UTF_8), true, () -> 40);
    List<String> lines = SummaryReport.lines(summary(Duration.ofSeconds(125), 14), SummaryReport.NextRun.RESUME,
        10_000_000);
    for (String line : lines) {
      CrawlRun.print(line, status, Logging.Verbosity.NORMAL);
    }
    List<String> shown = bytes.toString(StandardCharsets.UTF_8).lines().toList();
    assertTrue(shown.size() > lines.size(), shown.toString());
    for (String line : shown) {
      assertTrue(line.length() <= 40 || !line.strip().contains(" "), "too wide: " + line);
    }
    assertEquals(List.of("crawl stopped: 123,456 pages in 2m05s", "    (987.6 pages/s), 1.23GB read"),
        shown.subList(0, 2));
    assertEquals(words(lines), words(shown)); // no word split, none lost
  }

  @Test
  void aRunNoServerAnsweredIsSummedUpInAFewLines() {
    CrawlSummary refused = new CrawlSummary(CrawlSummary.End.COMPLETED, 1, 0, 0, Map.of("none", 1L),
        Map.of(ErrorKind.CONNECT, 1L), Map.of(), Map.of(), Map.of("new", 1L), 0, 0, 0, 1, 0, 0, 1, 0,
        Map.of("http://localhost:18081", "connection refused"), List.of(), SIEVE, TOTALS, Duration.ofMillis(240), null);
    assertEquals(List.of("crawl completed: 1 pages in 0.2 s (4.2 pages/s), 0B read",
        "  errors by kind:  connect 1",
        "  origins given up: http://localhost:18081 (connection refused)"),
        SummaryReport.lines(refused, SummaryReport.NextRun.NEW_CRAWL, 10_000_000));
  }

  @Test
  void aRecrawlSaysWhatChangedAndWhatWasKeptFresh() {
    CrawlSummary recrawl = new CrawlSummary(CrawlSummary.End.COMPLETED, 1_229, 0, 1_229,
        Map.of("2xx", 2L, "3xx", 1_227L),
        Map.of(), Map.of("fresh", 3L), Map.of(), Map.of("unchanged", 1_225L, "changed", 2L, "new", 1L, "gone", 1L), 0,
        0, 0, 1, 0, 1_232, 0, 0, Map.of(), List.of(), SIEVE, TOTALS, Duration.ofSeconds(80), null);
    List<String> lines = SummaryReport.lines(recrawl, SummaryReport.NextRun.RECRAWL, 10_000_000);
    assertTrue(lines.contains("  against the last visit: unchanged 1,225, changed 2, new 1, gone 1"), lines.toString());
    assertTrue(lines.contains("  kept as they were: 3 URLs fetched less than recrawl.after ago (not visited again;"
        + " --set recrawl.after=0s visits every one)"), lines.toString());
    assertTrue(SummaryReport.lines(summary(Duration.ofSeconds(1), 0), SummaryReport.NextRun.RESUME, 10_000_000)
        .stream().noneMatch(l -> l.contains("against the last visit")), "a first crawl has no last visit");
  }

  private static final SieveStats SIEVE = new SieveStats(1, 1, 0, 0, 0, 10_000_000, 0.001, 143_775_877, 10, 1, 1e-12,
      0, 0, true, 0);
  private static final CrawlTotals TOTALS = new CrawlTotals(1, 1, 0, 0, Map.of(), Map.of(), Map.of(), Map.of(), 0,
      Duration.ofSeconds(1));

  @Test
  void aFilterThatGrewPastTheURLsItHoldsIsNotCalledOverCapacity() {
    // 1,228 URLs seen, n = 1,700 after growing from 850: no advice, and certainly not an n below the one it has.
    String line = filterLine(stats(1_228, 1_700, 1), SummaryReport.NextRun.RESUME, 850);
    assertEquals("  URL filter:      about 1,228 distinct URLs seen, capacity n = 1,700; URLs rescued from false"
        + " positives by the exact store: 42; it grew from n = 850 during the crawl", line);
  }

  @Test
  void overCapacityTheAdviceNamesWhatCanStillTakeALargerN() {
    SieveStats over = stats(2_000, 1_000, 1);
    assertTrue(filterLine(over, SummaryReport.NextRun.RESUME, 1_000).endsWith("; over capacity, none lost but slower:"
        + " resume with filter.n (-n) 4,000 or more"));
    assertTrue(filterLine(over, SummaryReport.NextRun.RECRAWL, 1_000).endsWith("; over capacity, none lost but"
        + " slower: give the next recrawl filter.n (-n) 4,000 or more"));
    // completed, its directory gone: nothing to resume
    List<String> completed = SummaryReport.lines(summary(over), SummaryReport.NextRun.NEW_CRAWL, 1_000);
    assertTrue(completed.stream().anyMatch(l -> l.endsWith("; over capacity, none lost but slower: give the next crawl"
        + " filter.n (-n) 4,000 or more")), completed.toString());
    assertTrue(completed.stream().noneMatch(l -> l.contains("resume")), completed.toString());
    assertTrue(SummaryReport.sharedLines(summary(over)).stream().anyMatch(l -> l.contains("give the next crawl")));
  }

  private static String filterLine(SieveStats sieve, SummaryReport.NextRun next, long startN) {
    return SummaryReport.lines(summary(sieve), next, startN).stream().filter(l -> l.startsWith("  URL filter:"))
        .findFirst().orElseThrow();
  }

  /** A confirmed filter's stats: {@code admitted} URLs, capacity {@code n}, the estimate equal to the count. */
  private static SieveStats stats(long admitted, long n, int warnings) {
    return new SieveStats(admitted, 0, 0, 0, 0, n, 0.001, 100_000, 10_000, admitted, 0.001, warnings, 0, true, 42);
  }

  private static CrawlSummary summary(SieveStats sieve) {
    CrawlSummary base = summary(Duration.ofSeconds(1), 0);
    return new CrawlSummary(CrawlSummary.End.COMPLETED, base.fetched(), 0, base.responses(), base.byStatusClass(),
        base.errors(), base.skipped(), base.notAdmitted(), base.visits(), base.retries(), base.bytes(), base.truncated(),
        base.connections(), base.tlsHandshakes(), base.carriedOver(), base.admitted(), 0, base.givenUp(), base.origins(),
        sieve,
        base.totals(), base.elapsed(), null);
  }

  private static List<String> words(List<String> lines) {
    return lines.stream().flatMap(l -> Arrays.stream(l.strip().split(" +"))).toList();
  }

  private static CrawlSummary summary(Duration elapsed, int originsGivenUp) {
    Map<String, String> givenUp = new LinkedHashMap<>();
    IntStream.range(0, originsGivenUp).forEach(i -> givenUp.put("https://site-" + i + ".example", "refused"));
    Map<ErrorKind, Long> errors = new LinkedHashMap<>();
    errors.put(ErrorKind.CONNECT, 1_204L);
    errors.put(ErrorKind.TIMEOUT, 3L);
    SieveStats sieve = new SieveStats(130_000, 2_345_678, 0, 0, 0, 10_000_000, 0.001, 143_775_877, 1_000_000, 130_000,
        1e-12, 0, 0, true, 42);
    CrawlTotals totals = new CrawlTotals(3, 1_234_567, 12_345_678_901L, 0, Map.of(), Map.of(), Map.of(), Map.of(), 0,
        Duration.ofSeconds(3_700));
    return new CrawlSummary(CrawlSummary.End.STOPPED, 123_456, 0, 123_000,
        Map.of("2xx", 120_000L), errors, Map.of("robots", 1_500L), Map.of(), Map.of("new", 123_456L), 4_321,
        1_234_567_890L, 0, 2_470, 35, 0, 130_000,
        6_544, givenUp, List.of(), sieve, totals, elapsed, null);
  }
}

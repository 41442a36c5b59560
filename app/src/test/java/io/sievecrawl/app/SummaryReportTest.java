package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.CrawlSummary;
import io.sievecrawl.crawler.CrawlTotals;
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
    List<String> lines = SummaryReport.lines(summary(Duration.ofSeconds(125), 14));
    assertEquals("crawl stopped: 123,456 pages in 2m05s (987.6 pages/s), 1.23GB read", lines.get(0));
    assertTrue(lines.contains("  errors by kind:  connect 1,204, timeout 3"), lines.toString());
    assertTrue(lines.contains("  URL filter:      about 130,000 distinct URLs seen, capacity n = 10,000,000; URLs"
        + " rescued from false positives by the exact store: 42"), lines.toString());
    assertTrue(lines.get(5).endsWith(", and 4 more"), lines.get(5));
    assertEquals("  whole crawl:     3 runs, 1,234,567 pages, 12.35GB read, 1h01m crawling",
        lines.get(lines.size() - 1));
  }

  @Test
  void aShortRunIsTimedToTheTenthOfASecond() {
    assertTrue(SummaryReport.lines(summary(Duration.ofMillis(12_340), 0)).get(0).contains(" in 12.3 s ("));
    assertEquals("12.3 s", SummaryReport.took(Duration.ofMillis(12_340)));
    assertEquals("1m00s", SummaryReport.took(Duration.ofSeconds(60)));
    assertEquals("1,234h00m", SummaryReport.took(Duration.ofHours(1_234)));
  }

  @Test
  void onANarrowTerminalTheSummaryIsWrappedAtWordsAndIndented() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StatusLine status = new StatusLine(new PrintStream(bytes, true, StandardCharsets.UTF_8), true, () -> 40);
    List<String> lines = SummaryReport.lines(summary(Duration.ofSeconds(125), 14));
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
    return new CrawlSummary(CrawlSummary.End.STOPPED, 123_456, 123_000,
        Map.of("2xx", 120_000L), errors, Map.of("robots", 1_500L), Map.of(), 4_321, 1_234_567_890L, 0, 0, 130_000,
        6_544, givenUp, List.of(), sieve, totals, elapsed, null);
  }
}

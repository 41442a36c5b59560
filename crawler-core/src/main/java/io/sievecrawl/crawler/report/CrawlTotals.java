package io.sievecrawl.crawler.report;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counters summed over every run of one crawl (a crawl stopped and resumed is one crawl), for the summary and the
 * page limit.
 *
 * @param runs runs so far
 * @param fetched URLs fetched (one result record each)
 * @param bytes body bytes read
 * @param retries fetches repeated after errors
 * @param byStatusClass fetched URLs by status class
 * @param errors fetched URLs that ended in an error, by kind
 * @param skipped admitted URLs not fetched, by reason
 * @param notAdmitted links and redirect targets refused before the frontier, by reason
 * @param pagesStarted fetches started, against {@code crawl.max-pages}
 * @param elapsed crawling time, summed over the runs
 */
public record CrawlTotals(int runs, long fetched, long bytes, long retries, Map<String, Long> byStatusClass,
    Map<String, Long> errors, Map<String, Long> skipped, Map<String, Long> notAdmitted, long pagesStarted,
    Duration elapsed) {

  public CrawlTotals {
    byStatusClass = Collections.unmodifiableMap(new TreeMap<>(byStatusClass));
    errors = Collections.unmodifiableMap(new TreeMap<>(errors));
    skipped = Collections.unmodifiableMap(new TreeMap<>(skipped));
    notAdmitted = Collections.unmodifiableMap(new TreeMap<>(notAdmitted));
  }

  /** Nothing yet: a crawl before its first run. */
  public static final CrawlTotals NONE = new CrawlTotals(0, 0, 0, 0, Map.of(), Map.of(), Map.of(), Map.of(), 0,
      Duration.ZERO);

  /**
   * These totals, counting at least {@code earlierRuns} runs: a run killed before it first saved the totals is still
   * a run (the crawl directory's manifest counts every start).
   */
  public CrawlTotals withRunsAtLeast(int earlierRuns) {
    return runs >= earlierRuns ? this : new CrawlTotals(earlierRuns, fetched, bytes, retries, byStatusClass, errors,
        skipped, notAdmitted, pagesStarted, elapsed);
  }

  /** These totals plus one more run's counters. */
  public CrawlTotals plus(CrawlSummary run, long pagesStartedNow) {
    Map<String, Long> errorNames = new TreeMap<>();
    run.errors().forEach((kind, count) -> errorNames.put(kind.name(), count));
    return new CrawlTotals(runs + 1, fetched + run.fetched(), bytes + run.bytes(), retries + run.retries(),
        sum(byStatusClass, run.byStatusClass()), sum(errors, errorNames), sum(skipped, run.skipped()),
        sum(notAdmitted, run.notAdmitted()), pagesStartedNow, elapsed.plus(run.elapsed()));
  }

  private static Map<String, Long> sum(Map<String, Long> a, Map<String, Long> b) {
    Map<String, Long> total = new TreeMap<>(a);
    b.forEach((k, v) -> total.merge(k, v, Long::sum));
    return total;
  }
}

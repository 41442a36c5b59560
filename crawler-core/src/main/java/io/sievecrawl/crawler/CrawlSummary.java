package io.sievecrawl.crawler;

import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.sieve.SieveStats;
import java.time.Duration;
import java.util.Map;

/**
 * The outcome of a crawl.
 *
 * @param end why the crawl ended
 * @param fetched URLs fetched (one result record each)
 * @param byStatusClass fetched URLs by status class: {@code 2xx} ... {@code 5xx}, {@code none} (no response)
 * @param errors fetched URLs that ended in an error, by kind
 * @param skipped admitted URLs that were not fetched, by reason ({@code robots}, {@code robots-unavailable},
 *     {@code host-budget}, {@code page-limit})
 * @param notAdmitted links and redirect targets refused before the sieve, by reason ({@code out-of-scope-host},
 *     {@code out-of-scope-pattern}, {@code out-of-scope-depth}, {@code out-of-scope-trap},
 *     {@code redirect-to-seen-url}); duplicates the sieve dropped are counted in {@code sieve}
 * @param retries fetches repeated after a 5xx, 429 or network error
 * @param bytes body bytes read, decompressed
 * @param notFetched admitted URLs left unfetched because the crawl was stopped or hit its page limit
 * @param sieve the URL sieve's counters and filter state at the end
 * @param elapsed wall-clock time of the crawl
 */
public record CrawlSummary(
    End end,
    long fetched,
    Map<String, Long> byStatusClass,
    Map<ErrorKind, Long> errors,
    Map<String, Long> skipped,
    Map<String, Long> notAdmitted,
    long retries,
    long bytes,
    long notFetched,
    SieveStats sieve,
    Duration elapsed) {

  /** Why a crawl ended. */
  public enum End {
    /** Every reachable URL in scope was fetched. */
    COMPLETED,
    /** crawl.max-pages was reached. */
    PAGE_LIMIT,
    /** {@link Crawler#stop()} was called. */
    STOPPED
  }

  /** Fetched URLs per second of wall-clock time. */
  public double pagesPerSecond() {
    double seconds = elapsed.toNanos() / 1e9;
    return seconds <= 0 ? 0 : fetched / seconds;
  }

  /**
   * Whether every admitted URL is accounted for: fetched, skipped for a reason, or left unfetched by a stop or a
   * limit. Always true; a check for tests and for the summary.
   */
  public boolean accountsForEveryAdmittedUrl() {
    return sieve.admitted() == fetched + notFetched + skipped.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Errors of every kind. */
  public long errorCount() {
    return errors.values().stream().mapToLong(Long::longValue).sum();
  }
}

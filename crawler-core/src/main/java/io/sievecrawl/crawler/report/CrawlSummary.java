package io.sievecrawl.crawler.report;

import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.sieve.SieveStats;
import java.time.Duration;
import java.util.Map;

/**
 * The outcome of one run of a crawl.
 *
 * @param end why the run ended
 * @param fetched URLs fetched in this run (one result record each), pages and requisites
 * @param requisites of those, requisites: what pages need to be shown (style sheets, images, ...)
 * @param responses fetches that got an HTTP response (any status); 0 with work to do means nothing could be reached
 * @param byStatusClass fetched URLs by status class: {@code 2xx} ... {@code 5xx}, {@code none} (no response)
 * @param errors fetched URLs that ended in an error, by kind
 * @param skipped admitted URLs that will not be fetched, by reason ({@code robots}, {@code robots-unavailable},
 *     {@code origin-unreachable}, {@code host-budget}, {@code fresh}: {@link SkipReason})
 * @param notAdmitted links and redirect targets refused before the frontier, by reason ({@code out-of-scope-host},
 *     {@code out-of-scope-pattern}, {@code out-of-scope-depth}, {@code out-of-scope-trap}, {@code too-long},
 *     {@code redirect-to-seen-url}, {@code links-over-page-cap}, ...: {@link SkipReason}); duplicates the filter dropped are counted in
 *     {@code sieve}
 * @param visits fetched URLs by what they were against their last visit, for a recrawl: {@code unchanged} (a
 *     revisit: 304, or the same payload), {@code changed}, {@code gone} (404 or 410), {@code failed} (no answer or
 *     5xx) and {@code new} (no last visit)
 * @param retries fetches repeated after a 5xx, 429 or network error
 * @param bytes body bytes received, as sent
 * @param truncated pages whose body was cut off at fetch.max-body-size (parsed as far as they were read)
 * @param connections connections the run opened (attempts, failed ones included), robots.txt fetches' too
 * @param tlsHandshakes TLS handshakes those connections completed
 * @param carriedOver tasks waiting in the frontier when the run began (left by an earlier run)
 * @param admitted tasks admitted during this run
 * @param notFetched tasks still waiting or unfinished in the frontier when the run ended (a stop, the page limit, a
 *     failure); a resumed crawl does them
 * @param givenUp origins given up because their robots.txt could not be fetched, with why
 * @param origins the busiest origins of this run, busiest first (at most the 10,000 most recently active)
 * @param sieve the frontier's counters and filter state at the end
 * @param totals counters over every run of the crawl, this one included
 * @param elapsed wall-clock time of the run
 * @param failure what ended the run when {@code end} is {@link End#FAILED}, otherwise {@code null}
 */
public record CrawlSummary(
    End end,
    long fetched,
    long requisites,
    long responses,
    Map<String, Long> byStatusClass,
    Map<ErrorKind, Long> errors,
    Map<String, Long> skipped,
    Map<String, Long> notAdmitted,
    Map<String, Long> visits,
    long retries,
    long bytes,
    long truncated,
    long connections,
    long tlsHandshakes,
    long carriedOver,
    long admitted,
    long notFetched,
    Map<String, String> givenUp,
    java.util.List<OriginRow> origins,
    SieveStats sieve,
    CrawlTotals totals,
    Duration elapsed,
    Throwable failure) {

  /** Rows {@link #origins()} holds at most: those of the most recently active origins. */
  public static final int MAX_ORIGIN_ROWS = OriginStats.MAX_ORIGINS;

  /** Why a run ended. */
  public enum End {
    /** Every reachable URL in scope was fetched. */
    COMPLETED,
    /** crawl.max-pages was reached. */
    PAGE_LIMIT,
    /** crawl.max-time was reached. */
    TIME_LIMIT,
    /** {@link io.sievecrawl.crawler.Crawler#stop()} was called. */
    STOPPED,
    /** A failure ended the run: see {@link CrawlSummary#failure()}. */
    FAILED
  }

  /** Connections opened per URL fetched; 0 before the first fetch. */
  public double connectionsPerPage() {
    return fetched == 0 ? 0 : connections / (double) fetched;
  }

  /** Fetched URLs per second of wall-clock time. */
  public double pagesPerSecond() {
    double seconds = elapsed.toNanos() / 1e9;
    return seconds <= 0 ? 0 : fetched / seconds;
  }

  /**
   * Whether every task is accounted for: those carried over plus those admitted were fetched, skipped for a reason,
   * or are still in the frontier. A check for tests and for the summary; it holds whatever ended the run.
   */
  public boolean accountsForEveryAdmittedUrl() {
    long skippedCount = skipped.values().stream().mapToLong(Long::longValue).sum();
    return carriedOver + admitted == fetched + skippedCount + notFetched;
  }

  /**
   * Whether there was work (seeds, or tasks left by an earlier run) but no server answered at all; a recrawl whose
   * URLs were all fetched recently enough to be kept had no work.
   */
  public boolean reachedNothing() {
    long fresh = skipped(SkipReason.FRESH);
    return responses == 0 && carriedOver + admitted - fresh > 0;
  }

  /** Admitted URLs this run did not fetch for {@code reason}. */
  public long skipped(SkipReason reason) {
    return skipped.getOrDefault(reason.wireName(), 0L);
  }

  /** Errors of every kind. */
  public long errorCount() {
    return errors.values().stream().mapToLong(Long::longValue).sum();
  }
}

package io.sievecrawl.crawler;

import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.result.CrawlResult;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * What becomes of one lease, as the steps of a {@link LeasePipeline} decide it: the record to write, the URLs found
 * to offer, and how the lease ends. {@link LeaseCloser} carries it out. What cannot wait for the lease's end (what
 * the origin's pace learns, robots.txt's sitemaps) a step settles at once as an {@link Interim}.
 *
 * @param end how the lease ends
 * @param next {@link End#HAND_BACK}: the task to do again in the lease's place (a retry, a redirect hop to the same
 *     URL); {@code null} otherwise
 * @param after {@link End#HAND_BACK} and {@link End#POSTPONE}: how long the origin waits first
 * @param readyNow {@link End#POSTPONE}: whether what the origin waits for came meanwhile, asked once it is postponed
 * @param result the record to write, or {@code null}
 * @param skipReason when the record is of a URL given up without a fetch: why, as counted and logged as skipped
 * @param links a page's links, offered in one batch and listed in the record with their fate; {@code null} for none
 * @param listed URLs a sitemap, a feed or robots.txt lists, offered in one batch
 * @param redirect a redirect's target, offered alone; {@code null} for none
 * @param requisites what a page (or a style sheet) needs to be shown, offered with its links, in the requisites'
 *     scope
 */
record Outcome(End end, CrawlTask next, Duration after, BooleanSupplier readyNow, CrawlResult result,
    SkipReason skipReason, FoundLinks links, List<CrawlTask> listed, CrawlTask redirect, List<CrawlTask> requisites) {

  /** How a lease ends. */
  enum End {
    /** Done, its record written: acknowledged in the frontier. */
    COMPLETE,
    /** Done without a request (a skip), so without spending the origin's delay. */
    UNFETCHED,
    /** {@link #next} takes the lease's place in its origin's queue, due after {@link #after}. */
    HAND_BACK,
    /** The same task waits {@link #after} at the head of its origin's queue. */
    POSTPONE,
    /** Left unacknowledged: a resumed crawl does it again. */
    ABANDON
  }

  /**
   * The links of a page: those to offer, and those refused before the frontier (longer than traps.max-url-length),
   * as the page wrote them.
   */
  record FoundLinks(List<CrawlTask> tasks, List<String> tooLong) {
    FoundLinks {
      tasks = List.copyOf(tasks);
      tooLong = List.copyOf(tooLong);
    }
  }

  Outcome {
    Objects.requireNonNull(end, "end");
    listed = List.copyOf(listed);
    requisites = List.copyOf(requisites);
  }

  /** Done, with {@code result} to write. */
  static Outcome complete(CrawlResult result) {
    return new Outcome(End.COMPLETE, null, null, null, Objects.requireNonNull(result), null, null, List.of(), null,
        List.of());
  }

  /** Given up without a request, for {@code reason}; {@code result} recorded when not {@code null}. */
  static Outcome skipped(CrawlResult result, SkipReason reason) {
    return new Outcome(End.UNFETCHED, null, null, null, result, Objects.requireNonNull(reason), null, List.of(), null,
        List.of());
  }

  /** {@code next} done in the lease's place after {@code wait}. */
  static Outcome handBack(CrawlTask next, Duration wait) {
    return new Outcome(End.HAND_BACK, Objects.requireNonNull(next), wait, null, null, null, null, List.of(), null,
        List.of());
  }

  /** The task waits {@code wait}, or less if {@code readyNow} says what it waits for came already. */
  static Outcome postpone(Duration wait, BooleanSupplier readyNow) {
    return new Outcome(End.POSTPONE, null, wait, readyNow, null, null, null, List.of(), null, List.of());
  }

  /** Left for a resumed crawl. */
  static Outcome abandon() {
    return new Outcome(End.ABANDON, null, null, null, null, null, null, List.of(), null, List.of());
  }

  /**
   * What a step settles at once rather than at the lease's end: what the origin's pace learns (its response time
   * and status, a rest it asked for, robots.txt's Crawl-delay) before another request to it starts, and the
   * sitemaps robots.txt lists, which it tells of only once.
   *
   * @param response a response fetched, or {@code null}
   * @param originPause how long the whole origin rests (a Retry-After given up on), or {@code null}
   * @param crawlDelay robots.txt's Crawl-delay, or {@code null}
   * @param listed sitemaps robots.txt lists, offered as one batch
   */
  record Interim(FetchResponse response, Duration originPause, Duration crawlDelay, List<CrawlTask> listed) {
    Interim {
      listed = List.copyOf(listed);
    }

    static Interim responded(FetchResponse response) {
      return new Interim(Objects.requireNonNull(response), null, null, List.of());
    }

    static Interim originPause(Duration pause) {
      return new Interim(null, Objects.requireNonNull(pause), null, List.of());
    }

    /** robots.txt's news: {@code crawlDelay} may be {@code null}. */
    static Interim robots(Duration crawlDelay, List<CrawlTask> sitemaps) {
      return new Interim(null, null, crawlDelay, sitemaps);
    }
  }

  Outcome withLinks(FoundLinks found) {
    return new Outcome(end, next, after, readyNow, result, skipReason, found, listed, redirect, requisites);
  }

  Outcome withListed(List<CrawlTask> tasks) {
    return new Outcome(end, next, after, readyNow, result, skipReason, links, tasks, redirect, requisites);
  }

  Outcome withRedirect(CrawlTask target) {
    return new Outcome(end, next, after, readyNow, result, skipReason, links, listed, target, requisites);
  }

  Outcome withRequisites(List<CrawlTask> tasks) {
    return new Outcome(end, next, after, readyNow, result, skipReason, links, listed, redirect, tasks);
  }
}

package io.sievecrawl.crawler.lease;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.result.CrawlResult;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * What becomes of one lease, as the steps of a {@link LeasePipeline} decide it: one kind per way a lease ends, each
 * with what that way needs and nothing else (no field is null). {@link LeaseCloser} carries it out, switching over
 * the kinds. What cannot wait for the lease's end (what the origin's pace learns, robots.txt's sitemaps) a step
 * settles at once as an {@link Interim}.
 */
sealed interface Outcome {

  /**
   * Fetched and done: {@code result} is written and the lease acknowledged. A page's links and requisites and a
   * listing's URLs are offered first, through scope and the frontier.
   *
   * @param links a page's links, offered in one batch and listed in the record with their fate
   * @param listed URLs a sitemap or a feed lists, offered in one batch
   * @param requisites what a page (or a style sheet) needs to be shown, offered with its links, in the requisites'
   *     scope
   */
  record Complete(CrawlResult result, FoundLinks links, List<CrawlTask> listed, List<CrawlTask> requisites)
      implements Outcome {
    public Complete {
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(links, "links");
      listed = List.copyOf(listed);
      requisites = List.copyOf(requisites);
    }

    Complete withLinks(FoundLinks found) {
      return new Complete(result, found, listed, requisites);
    }

    Complete withListed(List<CrawlTask> tasks) {
      return new Complete(result, links, tasks, requisites);
    }

    Complete withRequisites(List<CrawlTask> tasks) {
      return new Complete(result, links, listed, tasks);
    }
  }

  /** A redirect, fetched and done: {@code result} is written, {@code target} offered alone (scope, the frontier). */
  record Redirect(CrawlResult result, CrawlTask target) implements Outcome {
    public Redirect {
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(target, "target");
    }
  }

  /**
   * Given up without a request (so without spending the origin's delay), for {@code reason}, counted and logged as
   * skipped; nothing recorded (a fresh URL, a budget).
   */
  record Skipped(SkipReason reason) implements Outcome {
    public Skipped {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * Given up without a request, as {@link Skipped}, and recorded as {@code result} says why (robots.txt disallows it,
   * its origin is unreachable or given up).
   */
  record GivenUp(CrawlResult result, SkipReason reason) implements Outcome {
    public GivenUp {
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** {@code next} takes the lease's place in its origin's queue, due after {@code after}: a retry, a cookie check. */
  record HandBack(CrawlTask next, Duration after) implements Outcome {
    public HandBack {
      Objects.requireNonNull(next, "next");
      Objects.requireNonNull(after, "after");
    }
  }

  /**
   * The same task waits {@code after} at the head of its origin's queue; {@code readyNow}, asked once it is
   * postponed, says whether what it waits for came meanwhile.
   */
  record Postpone(Duration after, BooleanSupplier readyNow) implements Outcome {
    private static final BooleanSupplier NEVER = () -> false;

    public Postpone {
      Objects.requireNonNull(after, "after");
      Objects.requireNonNull(readyNow, "readyNow");
    }

    /** Waits {@code after}, whatever happens meanwhile. */
    Postpone(Duration after) {
      this(after, NEVER);
    }
  }

  /** Left unacknowledged: a resumed crawl does it again. */
  record Abandon() implements Outcome {}

  /**
   * The links of a page: those to offer, and those refused before the frontier (longer than traps.max-url-length),
   * as the page wrote them.
   */
  record FoundLinks(List<CrawlTask> tasks, List<String> tooLong) {
    static final FoundLinks NONE = new FoundLinks(List.of(), List.of());

    public FoundLinks {
      tasks = List.copyOf(tasks);
      tooLong = List.copyOf(tooLong);
    }

    boolean isEmpty() {
      return tasks.isEmpty() && tooLong.isEmpty();
    }
  }

  /** Done, with {@code result} to write. */
  static Complete complete(CrawlResult result) {
    return new Complete(result, FoundLinks.NONE, List.of(), List.of());
  }

  /** Given up without a request, for {@code reason}; nothing recorded. */
  static Outcome skipped(SkipReason reason) {
    return new Skipped(reason);
  }

  /** Given up without a request, for {@code reason}, recorded as {@code result}. */
  static Outcome givenUp(CrawlResult result, SkipReason reason) {
    return new GivenUp(result, reason);
  }

  /** {@code next} done in the lease's place after {@code wait}. */
  static Outcome handBack(CrawlTask next, Duration wait) {
    return new HandBack(next, wait);
  }

  /** The task waits {@code wait}, or less if {@code readyNow} says what it waits for came already. */
  static Outcome postpone(Duration wait, BooleanSupplier readyNow) {
    return new Postpone(wait, readyNow);
  }

  /** The task waits {@code wait}. */
  static Outcome postpone(Duration wait) {
    return new Postpone(wait);
  }

  /** Left for a resumed crawl. */
  static Outcome abandon() {
    return new Abandon();
  }

  /**
   * What a step settles at once rather than at the lease's end: what the origin's pace learns (its response time
   * and status, a rest it asked for, robots.txt's Crawl-delay) before another request to it starts, and the
   * sitemaps robots.txt lists, which it tells of only once. {@link LeaseCloser#settleNow} switches over the kinds.
   */
  sealed interface Interim {

    /** A response fetched: its time and status teach the origin's adaptive delay. */
    record Responded(FetchResponse response) implements Interim {
      public Responded {
        Objects.requireNonNull(response, "response");
      }
    }

    /** The whole origin rests {@code pause} (a Retry-After given up on). */
    record OriginPause(Duration pause) implements Interim {
      public OriginPause {
        Objects.requireNonNull(pause, "pause");
      }
    }

    /**
     * robots.txt's news: its Crawl-delay, if it has one, and the sitemaps it lists, offered as one batch.
     */
    record Robots(Optional<Duration> crawlDelay, List<CrawlTask> sitemaps) implements Interim {
      public Robots {
        Objects.requireNonNull(crawlDelay, "crawlDelay");
        sitemaps = List.copyOf(sitemaps);
      }
    }

    static Interim responded(FetchResponse response) {
      return new Responded(response);
    }

    static Interim originPause(Duration pause) {
      return new OriginPause(pause);
    }

    /** robots.txt's news: {@code crawlDelay} may be {@code null} for none. */
    static Interim robots(Duration crawlDelay, List<CrawlTask> sitemaps) {
      return new Robots(Optional.ofNullable(crawlDelay), sitemaps);
    }
  }
}

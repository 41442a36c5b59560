package io.sievecrawl.crawler.robots;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What robots.txt says about one URL.
 *
 * @param decision allowed, disallowed, being fetched, unreachable for now, or given up
 * @param crawlDelay the origin's Crawl-delay for this crawler, or {@link Duration#ZERO}
 * @param retryAt for {@link Decision#RETRY_LATER}: when robots.txt will be tried again
 * @param reason for {@link Decision#UNAVAILABLE}: why the origin was given up
 * @param sitemaps the sitemaps the origin's robots.txt lists, in the first verdict given after each fetch of it;
 *     empty in every other
 */
public record RobotsVerdict(Decision decision, Duration crawlDelay, Instant retryAt, String reason,
    boolean unreachable, List<String> sitemaps) {

  /** The possible answers. */
  public enum Decision {
    ALLOWED,
    DISALLOWED,
    /** robots.txt is being fetched: the caller's callback runs when it is known. */
    PENDING,
    /** robots.txt answered 429 or 5xx or could not be fetched: the origin is off limits until {@code retryAt}. */
    RETRY_LATER,
    /** robots.txt stayed unreachable through every retry, or cannot be reached at all: the origin is not crawled. */
    UNAVAILABLE
  }

  static RobotsVerdict allowed(Duration crawlDelay, List<String> sitemaps) {
    return new RobotsVerdict(Decision.ALLOWED, crawlDelay, null, null, false, sitemaps);
  }

  static RobotsVerdict disallowed(Duration crawlDelay, List<String> sitemaps) {
    return new RobotsVerdict(Decision.DISALLOWED, crawlDelay, null, null, false, sitemaps);
  }

  static RobotsVerdict pending() {
    return new RobotsVerdict(Decision.PENDING, Duration.ZERO, null, null, false, List.of());
  }

  static RobotsVerdict retryLater(Instant retryAt) {
    return new RobotsVerdict(Decision.RETRY_LATER, Duration.ZERO, retryAt, null, false, List.of());
  }

  /** @param unreachable whether the server could not be reached at all, rather than answering with errors */
  static RobotsVerdict unavailable(String reason, boolean unreachable) {
    return new RobotsVerdict(Decision.UNAVAILABLE, Duration.ZERO, null, reason, unreachable, List.of());
  }
}

package io.sievecrawl.crawler.robots;

import java.time.Duration;
import java.time.Instant;

/**
 * What robots.txt says about one URL.
 *
 * @param decision allowed, disallowed, not yet known (robots.txt unreachable for now), or given up
 * @param crawlDelay the host's Crawl-delay for this crawler, or {@link Duration#ZERO}
 * @param retryAt for {@link Decision#RETRY_LATER}: when robots.txt will be tried again
 */
public record RobotsVerdict(Decision decision, Duration crawlDelay, Instant retryAt) {

  /** The possible answers. */
  public enum Decision {
    ALLOWED,
    DISALLOWED,
    /** robots.txt answered 5xx or could not be fetched: the host is off limits until {@code retryAt}. */
    RETRY_LATER,
    /** robots.txt stayed unreachable through every retry: the host is not crawled. */
    UNAVAILABLE
  }

  static RobotsVerdict allowed(Duration crawlDelay) {
    return new RobotsVerdict(Decision.ALLOWED, crawlDelay, null);
  }

  static RobotsVerdict disallowed(Duration crawlDelay) {
    return new RobotsVerdict(Decision.DISALLOWED, crawlDelay, null);
  }
}

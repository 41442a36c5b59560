package io.sievecrawl.crawler.schedule;

import java.time.Duration;

/**
 * How the scheduler treats one origin, and how many origins it keeps at hand.
 *
 * @param hostConcurrency requests in flight at once per origin
 * @param delay the least time between two starts on one origin: fixed, or the floor of the adaptive delay
 * @param adaptive whether the delay follows the server: {@code responseTimeFactor} times its last response time,
 *     between {@code delay} and {@code maxDelay}
 * @param responseTimeFactor the multiple of the last response time waited before the next start when adaptive
 * @param maxDelay the ceiling of the adaptive delay and of the back-off after 429 and 503 (a robots.txt Crawl-delay
 *     is capped separately)
 * @param maxActive origins the scheduler keeps at hand at most (with their pace, a few hundred bytes each); the rest
 *     wait in the frontier's line, and an origin that has had its turns goes back there for one that waits
 */
public record Politeness(int hostConcurrency, Duration delay, boolean adaptive, int responseTimeFactor,
    Duration maxDelay, int maxActive) {

  /** Origins at hand for a crawl of any concurrency: enough for every site of a broad crawl to keep its pace. */
  public static final int DEFAULT_MAX_ACTIVE = 20_000;

  /** A fixed delay (tests). */
  public static Politeness fixed(int hostConcurrency, Duration delay, int maxActive) {
    return new Politeness(hostConcurrency, delay, false, 1, delay, maxActive);
  }

  public static Politeness of(int hostConcurrency, Duration delay, boolean adaptive, int responseTimeFactor,
      Duration maxDelay) {
    return new Politeness(hostConcurrency, delay, adaptive, responseTimeFactor, maxDelay.compareTo(delay) < 0 ? delay
        : maxDelay, DEFAULT_MAX_ACTIVE);
  }
}

package io.sievecrawl.crawler.schedule;

import java.time.Duration;

/**
 * How the scheduler treats one origin, and how much work waits in its memory.
 *
 * @param hostConcurrency requests in flight at once per origin
 * @param delay the least time between two starts on one origin: fixed, or the floor of the adaptive delay
 * @param adaptive whether the delay follows the server: {@code responseTimeFactor} times its last response time,
 *     between {@code delay} and {@code maxDelay}
 * @param responseTimeFactor the multiple of the last response time waited before the next start when adaptive
 * @param maxDelay the ceiling of the adaptive delay and of the back-off after 429 and 503 (a robots.txt Crawl-delay
 *     is capped separately)
 * @param window tasks waiting in memory per origin, at most
 * @param maxHeld tasks waiting in memory over all origins, at most
 */
public record Politeness(int hostConcurrency, Duration delay, boolean adaptive, int responseTimeFactor,
    Duration maxDelay, int window, int maxHeld) {

  /** A fixed delay and the given memory bounds (tests). */
  public static Politeness fixed(int hostConcurrency, Duration delay, int window, int maxHeld) {
    return new Politeness(hostConcurrency, delay, false, 1, delay, window, maxHeld);
  }

  /** Windows sized for {@code concurrency} workers: enough waiting work per origin to keep them busy. */
  public static Politeness of(int hostConcurrency, Duration delay, boolean adaptive, int responseTimeFactor,
      Duration maxDelay, int concurrency) {
    int window = Math.max(64, 4 * hostConcurrency);
    return new Politeness(hostConcurrency, delay, adaptive, responseTimeFactor, maxDelay.compareTo(delay) < 0 ? delay
        : maxDelay, window, Math.max(10_000, Math.max(window, 16 * concurrency)));
  }
}

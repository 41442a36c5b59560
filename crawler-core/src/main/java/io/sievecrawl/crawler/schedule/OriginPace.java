package io.sievecrawl.crawler.schedule;

/**
 * When one origin may start its next request: the last start plus its delay, and never before a pause ends.
 *
 * <p>The delay is the configured one, or with adaptive politeness the server's last response time times a factor,
 * kept between the configured delay and a ceiling (Heritrix's and Scrapy's AutoThrottle's idea: a server that slows
 * down gets more room). A 429 or 503 doubles it (up to the ceiling), each later success halves that back-off again.
 * A robots.txt Crawl-delay wins when it is longer. Times are nanoseconds of the scheduler's ticker. Not thread-safe:
 * the scheduler's lock guards it.
 *
 * <p>A start is noted when a task is leased ({@link #started}), so that the origin waits its delay before the next
 * lease, and again when its request is sent ({@link #sending}), which may be later: the delay runs from the later of
 * the two, and two requests are never sent closer together than the delay.
 */
final class OriginPace {
  private static final int MAX_BACKOFF = 64;

  private final Politeness politeness;
  private long lastStart;
  private boolean started;
  private long lastSent;
  private boolean sent;
  private long delay; // before back-off and Crawl-delay
  private long crawlDelay;
  private int backoff = 1;
  private long pausedUntil;
  private boolean hasPause;

  OriginPace(Politeness politeness) {
    this.politeness = politeness;
    this.delay = politeness.delay().toNanos();
  }

  /** The earliest start of the next request; {@code now} for an origin that has not started one. */
  long nextStart(long now) {
    long next = started ? lastStart + effectiveDelay() : now;
    return hasPause && pausedUntil - next > 0 ? pausedUntil : next;
  }

  /** The delay between starts now: the adapted or fixed delay with its back-off, or the Crawl-delay if longer. */
  long effectiveDelay() {
    long ceiling = Math.max(politeness.maxDelay().toNanos(), delay);
    long backedOff = Math.min(ceiling, delay * backoff); // at most 1 h (the setting's bound) times 64: no overflow
    return Math.max(backedOff, crawlDelay);
  }

  void started(long now) {
    lastStart = now;
    started = true;
  }

  long lastStart() {
    return lastStart;
  }

  boolean hasStarted() {
    return started;
  }

  /**
   * A request is about to be sent at {@code now}: returns 0 and runs the delay from now, or, when the last request
   * sent went less than the delay ago, the nanoseconds until the delay is over (and notes nothing).
   */
  long sending(long now) {
    if (sent && lastSent + effectiveDelay() - now > 0) {
      return lastSent + effectiveDelay() - now;
    }
    lastSent = now;
    sent = true;
    if (!started || now - lastStart > 0) {
      lastStart = now;
      started = true;
    }
    return 0;
  }

  /**
   * Puts back the last start {@link #started} replaced: the request it stood for was not sent after all. A request
   * sent since still counts.
   */
  void restoreStart(long previousStart, boolean previouslyStarted) {
    lastStart = previousStart;
    started = previouslyStarted;
    if (sent && (!started || lastSent - lastStart > 0)) {
      lastStart = lastSent;
      started = true;
    }
  }

  /** A response came after {@code responseNanos}: adapt the delay, and back off on 429 and 503. */
  void responded(long responseNanos, Integer status) {
    if (politeness.adaptive()) {
      long floor = politeness.delay().toNanos();
      long ceiling = Math.max(politeness.maxDelay().toNanos(), floor);
      long wanted = responseNanos > ceiling / politeness.responseTimeFactor() ? ceiling
          : responseNanos * politeness.responseTimeFactor();
      delay = Math.max(floor, Math.min(ceiling, wanted));
    }
    if (status != null && (status == 429 || status == 503)) {
      backoff = Math.min(MAX_BACKOFF, backoff * 2);
    } else if (status != null && status < 500) {
      backoff = Math.max(1, backoff / 2);
    }
  }

  void crawlDelay(long nanos) {
    crawlDelay = nanos;
  }

  /** No start before {@code until} (a Retry-After, an unreachable robots.txt); a later pause wins. */
  void pauseUntil(long until) {
    if (!hasPause || until - pausedUntil > 0) {
      pausedUntil = until;
      hasPause = true;
    }
  }

  /** Ends any pause now (robots.txt became known). */
  void resume(long now) {
    if (hasPause && pausedUntil - now > 0) {
      pausedUntil = now;
    }
  }

  /** Whether a pause (Retry-After, robots.txt awaited or unreachable) or a back-off holds the origin at {@code now}. */
  boolean isHeldBack(long now) {
    return (hasPause && pausedUntil - now > 0) || backoff > 1;
  }

  /** Whether nothing about this origin needs remembering at {@code now}: no pending delay, pause or back-off. */
  boolean isIdle(long now) {
    return nextStart(now) - now <= 0 && backoff == 1;
  }
}

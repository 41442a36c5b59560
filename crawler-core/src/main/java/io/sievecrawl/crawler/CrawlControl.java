package io.sievecrawl.crawler;

import io.sievecrawl.sieve.Ticker;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the crawl goes on: the one piece of crawl-wide state that workers both read and change. A stop request,
 * the page limit and a fatal failure all end up here; {@code onStop} (the scheduler's stop) runs once, on the first.
 */
public final class CrawlControl {
  private static final Logger log = LoggerFactory.getLogger(CrawlControl.class);

  private final Runnable onStop;
  private final Runnable onPageLimit;
  private final long maxPages;
  private final AtomicLong pagesStarted;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final Ticker ticker;
  private volatile long stopRequestedAt; // the ticker's time of the first stop, 0 while none
  private volatile boolean pageLimitReached;
  private volatile boolean timeLimitReached;
  private volatile boolean stopRequested;

  /**
   * @param maxPages fetches allowed over the whole crawl, 0 for no limit
   * @param pagesBefore fetches started in earlier runs of the same crawl
   * @param ticker the crawl's ticker: the stop's grace period is counted on it
   * @param onPageLimit run once when the page limit is reached, instead of stopping the crawl (the pages fetched still
   *     get their requisites: it ends when they have); {@code null} to stop then
   */
  public CrawlControl(long maxPages, long pagesBefore, Ticker ticker, Runnable onStop, Runnable onPageLimit) {
    this.maxPages = maxPages;
    this.ticker = ticker;
    this.pagesStarted = new AtomicLong(pagesBefore);
    this.onStop = onStop;
    this.onPageLimit = onPageLimit;
  }

  public CrawlControl(long maxPages, long pagesBefore, Ticker ticker, Runnable onStop) {
    this(maxPages, pagesBefore, ticker, onStop, null);
  }

  /** Takes one page of the page limit; {@code false} (and the crawl stops, or fetches no more pages) once used up. */
  public boolean tryStartPage() {
    if (pagesStarted.incrementAndGet() > maxPages && maxPages > 0) {
      pagesStarted.decrementAndGet();
      reachPageLimit();
      return false;
    }
    return true;
  }

  private synchronized void reachPageLimit() {
    if (!pageLimitReached) {
      pageLimitReached = true;
      if (onPageLimit == null) {
        halt();
      } else {
        onPageLimit.run();
      }
    }
  }

  /** Ends the crawl as its time limit (crawl.max-time) says. */
  void reachTimeLimit() {
    if (!isStopping()) {
      timeLimitReached = true;
      halt();
    }
  }

  boolean timeLimitReached() {
    return timeLimitReached;
  }

  /** Asks the crawl to end; safe from any thread, more than once. */
  void requestStop() {
    stopRequested = true;
    halt();
  }

  /** A failure that ends the crawl (results or the crawl directory cannot be written, an Error in a worker). */
  public void fail(Throwable cause) {
    if (failure.compareAndSet(null, cause)) {
      log.error("the crawl stops: {}", describe(cause));
    }
    halt();
  }

  private synchronized void halt() {
    if (stopRequestedAt == 0) {
      stopRequestedAt = ticker.nanos() | 1;
      onStop.run();
    }
  }

  /** Whether the crawl is ending, for whatever reason: no new fetch or retry should start. */
  public boolean isStopping() {
    return stopRequestedAt != 0;
  }

  /** The ticker's time of the first stop, or 0. */
  long stopRequestedAt() {
    return stopRequestedAt;
  }

  boolean pageLimitReached() {
    return pageLimitReached;
  }

  /** Whether {@link #requestStop()} was called (by the user, through a signal). */
  boolean stopRequested() {
    return stopRequested;
  }

  /** Fetches started over the whole crawl. */
  long pagesStarted() {
    return pagesStarted.get();
  }

  public Throwable failure() {
    return failure.get();
  }

  public static String describe(Throwable e) {
    String message = e.getMessage();
    return message == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + message;
  }
}

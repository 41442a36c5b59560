package io.sievecrawl.sieve.testing;

import io.sievecrawl.sieve.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that stands still until a test moves it: both the crawl's {@link Ticker} (elapsed nanoseconds) and its
 * wall {@link Clock}, moved together by {@link #advance}. Thread-safe: a test moves it while the code under test reads
 * it on other threads.
 *
 * <p>The ticker starts at an arbitrary reading, as {@link System#nanoTime()} does: only differences mean anything.
 */
public final class FakeClock extends Clock implements Ticker {
  /** Where the wall clock starts unless told otherwise. */
  public static final Instant START = Instant.parse("2025-01-01T00:00:00Z");
  private static final long TICKER_ORIGIN = 1_000_000_000_000L;

  private final AtomicLong elapsed; // nanoseconds since the start, shared with the views in other zones
  private final Instant start;
  private final ZoneId zone;

  /** A clock at {@link #START}. */
  public FakeClock() {
    this(START);
  }

  /** A clock whose wall time starts at {@code start}. */
  public FakeClock(Instant start) {
    this(new AtomicLong(), Objects.requireNonNull(start, "start"), ZoneOffset.UTC);
  }

  private FakeClock(AtomicLong elapsed, Instant start, ZoneId zone) {
    this.elapsed = elapsed;
    this.start = start;
    this.zone = zone;
  }

  /** Moves the ticker and the wall clock forward by {@code by}; time never goes back. */
  public void advance(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("time does not go back: " + by);
    }
    elapsed.addAndGet(by.toNanos());
  }

  @Override
  public long nanos() {
    return TICKER_ORIGIN + elapsed.get();
  }

  @Override
  public Instant instant() {
    return start.plusNanos(elapsed.get());
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  /** The same clock seen in {@code zone}: moving either moves both. */
  @Override
  public Clock withZone(ZoneId zone) {
    return zone.equals(this.zone) ? this : new FakeClock(elapsed, start, zone);
  }

  @Override
  public String toString() {
    return "FakeClock[" + instant() + "]";
  }
}

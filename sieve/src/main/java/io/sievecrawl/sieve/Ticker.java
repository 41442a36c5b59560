package io.sievecrawl.sieve;

/**
 * A source of nanoseconds for measuring elapsed time, as {@link System#nanoTime()}: only differences between two
 * reads mean anything. Every timer of a crawl (politeness, leases, retries, limits) reads one injected ticker, so a
 * test drives time with a fake one instead of waiting.
 */
@FunctionalInterface
public interface Ticker {
  /** The system's monotonic clock. */
  Ticker SYSTEM = System::nanoTime;

  /** The current reading, in nanoseconds. */
  long nanos();
}

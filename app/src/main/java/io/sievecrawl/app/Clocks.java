package io.sievecrawl.app;

import io.sievecrawl.sieve.Ticker;
import java.time.Clock;

/**
 * The clocks a command reads the time from, and hands to the crawl: the system's, taken once where the program
 * starts ({@link Main}); a test may give others.
 *
 * @param wall the wall clock: dates in the crawl's files and reports
 * @param ticker elapsed time: the crawl's timers, the progress line's rates, waits
 */
record Clocks(Clock wall, Ticker ticker) {
  static Clocks system() {
    return new Clocks(Clock.systemUTC(), Ticker.SYSTEM);
  }
}

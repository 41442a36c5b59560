package io.sievecrawl.sieve;

import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;

/**
 * Logs a failure that repeats on a timer (a full disk fails the state save every second) as an ERROR when it starts,
 * again at most once a minute with a count while it lasts, and as a WARN when it ends: a full disk under {@code -q}
 * prints a line a minute, not a line a second.
 */
public final class FailureLog {
  static final long REPEAT_NANOS = Duration.ofMinutes(1).toNanos();

  private final Logger log;
  private final String what;
  private final Ticker ticker;
  private long failures;
  private long loggedAt;

  /**
   * @param what what fails, as the start of a sentence ({@code cannot save the crawl state in DIR})
   * @param ticker the crawl's ticker, which the minute between repeats is counted on
   */
  public FailureLog(Logger log, String what, Ticker ticker) {
    this.log = log;
    this.what = what;
    this.ticker = ticker;
  }

  /** The action failed once more, for {@code reason}. */
  public synchronized void failed(String reason) {
    long now = ticker.nanos();
    failures++;
    if (failures == 1) {
      log.error("{}: {}", what, reason);
      loggedAt = now;
    } else if (now - loggedAt >= REPEAT_NANOS) {
      log.error(String.format(Locale.ROOT, "%s: %s (%,d failures in a row; said once a minute while it lasts)", what,
          reason, failures));
      loggedAt = now;
    }
  }

  /** The action worked: a failure that was going on has ended. */
  public synchronized void succeeded() {
    if (failures > 0) {
      log.warn(String.format(Locale.ROOT, "%s: recovered after %,d failures", what, failures));
      failures = 0;
    }
  }
}

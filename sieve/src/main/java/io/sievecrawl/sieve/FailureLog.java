package io.sievecrawl.sieve;

import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Logs a failure that repeats on a timer (a full disk fails the state save every second) as an ERROR when it starts,
 * again at most once a minute with a count while it lasts, and as a WARN when it ends: a full disk under {@code -q}
 * prints a line a minute, not a line a second.
 */
public final class FailureLog {
  static final long REPEAT_MILLIS = Duration.ofMinutes(1).toMillis();

  private final Logger log;
  private final String what;
  private final LongSupplier millis;
  private long failures;
  private long loggedAt;

  /**
   * @param what what fails, as the start of a sentence ({@code cannot save the crawl state in DIR})
   * @param millis a clock in milliseconds ({@code System::currentTimeMillis})
   */
  public FailureLog(Logger log, String what, LongSupplier millis) {
    this.log = log;
    this.what = what;
    this.millis = millis;
  }

  public FailureLog(Logger log, String what) {
    this(log, what, System::currentTimeMillis);
  }

  /** The action failed once more, for {@code reason}. */
  public synchronized void failed(String reason) {
    long now = millis.getAsLong();
    failures++;
    if (failures == 1) {
      log.error("{}: {}", what, reason);
      loggedAt = now;
    } else if (now - loggedAt >= REPEAT_MILLIS) {
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

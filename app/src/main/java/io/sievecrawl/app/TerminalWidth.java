package io.sievecrawl.app;

import io.sievecrawl.sieve.Ticker;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import sun.misc.Signal;

/**
 * The terminal's width in columns, following resizes. Asking {@code stty} takes a process, so the width is asked
 * again only after the terminal says it was resized (SIGWINCH); where that signal cannot be handled, at most every
 * {@link #UNSIGNALLED_MAX_AGE_SECONDS} seconds. When {@code stty} cannot tell, $COLUMNS, else 80.
 */
final class TerminalWidth {
  static final int UNSIGNALLED_MAX_AGE_SECONDS = 5;
  private static final int FALLBACK = 80;
  private static final int NARROWEST = 20;
  /** SIGWINCHs received: each reader compares it with the count at its last read. */
  private static final AtomicInteger RESIZES = new AtomicInteger();
  private static Boolean signalled; // guarded by TerminalWidth.class

  private final IntSupplier probe;
  private final IntSupplier resizes;
  private final long maxAgeNanos;
  private final Ticker ticker;
  private int columns; // guarded by this
  private int resizesSeen; // guarded by this
  private long readAt; // guarded by this
  private boolean read; // guarded by this

  /**
   * @param probe the width now, or 0 or less when it cannot be told
   * @param resizes a count that goes up when the terminal is resized
   * @param maxAgeNanos how long a width read is kept when no resize is signalled, on {@code ticker}
   */
  TerminalWidth(IntSupplier probe, IntSupplier resizes, long maxAgeNanos, Ticker ticker) {
    this.probe = probe;
    this.resizes = resizes;
    this.maxAgeNanos = maxAgeNanos;
    this.ticker = ticker;
  }

  /** The width of the terminal on /dev/tty. */
  static TerminalWidth ofTty(Ticker ticker) {
    long maxAge = listenForResizes() ? Long.MAX_VALUE : TimeUnit.SECONDS.toNanos(UNSIGNALLED_MAX_AGE_SECONDS);
    return new TerminalWidth(new SttyProbe(), RESIZES::get, maxAge, ticker);
  }

  /** The width now: read again if the terminal was resized since the last read, or that read is too old. */
  synchronized int columns() {
    long now = ticker.nanos();
    int resized = resizes.getAsInt();
    if (!read || resized != resizesSeen || now - readAt >= maxAgeNanos) {
      read = true;
      resizesSeen = resized;
      readAt = now;
      int probed = probe.getAsInt();
      columns = probed > 0 ? Math.max(NARROWEST, probed) : fromEnvironment();
    }
    return columns;
  }

  private static int fromEnvironment() {
    String value = System.getenv("COLUMNS");
    try {
      return value == null || value.isBlank() ? FALLBACK : Math.max(NARROWEST, Integer.parseInt(value.trim()));
    } catch (NumberFormatException e) {
      return FALLBACK;
    }
  }

  /** Counts SIGWINCHs in {@link #RESIZES}; returns whether it can (not where the JVM or the OS lacks the signal). */
  private static synchronized boolean listenForResizes() {
    if (signalled == null) {
      try {
        Signal.handle(new Signal("WINCH"), s -> RESIZES.incrementAndGet());
        signalled = true;
      } catch (IllegalArgumentException | LinkageError e) {
        signalled = false;
      }
    }
    return signalled;
  }

  /** {@code stty size} on /dev/tty; once it cannot run at all (no stty, no /dev/tty), it is not tried again. */
  private static final class SttyProbe implements IntSupplier {
    private boolean unavailable;

    @Override
    public int getAsInt() {
      if (unavailable) {
        return 0;
      }
      try {
        Process stty = new ProcessBuilder("stty", "size").redirectInput(new File("/dev/tty"))
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(stty.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        if (!stty.waitFor(2, TimeUnit.SECONDS)) {
          stty.destroy();
        } else if (stty.exitValue() == 0 && out.contains(" ")) {
          return Integer.parseInt(out.substring(out.indexOf(' ') + 1));
        }
      } catch (IOException e) {
        unavailable = true;
      } catch (NumberFormatException e) {
        // an odd answer: this time only
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return 0;
    }
  }
}

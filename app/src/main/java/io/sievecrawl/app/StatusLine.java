package io.sievecrawl.app;

import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;

/**
 * Standard error shared by log messages and, on a terminal, one live progress line: a log message first clears
 * the progress line, and the next update redraws it, so the two never garble each other.
 */
final class StatusLine {
  private static final String CLEAR = "\r\033[K";

  private final PrintStream err;
  private final boolean terminal;
  private final IntSupplier columns;
  private String current = ""; // guarded by this

  /**
   * Standard error {@code err}, with a live line when it is a {@code terminal}, fitted to the terminal's width (read
   * again when it may have changed, on {@code ticker}).
   */
  static StatusLine of(PrintStream err, boolean terminal, Ticker ticker) {
    return new StatusLine(err, terminal, terminal ? TerminalWidth.ofTty(ticker)::columns : () -> Integer.MAX_VALUE);
  }

  /** @param columns the terminal's width now (asked at each redraw, so that it follows resizes) */
  StatusLine(PrintStream err, boolean terminal, IntSupplier columns) {
    this.err = err;
    this.terminal = terminal;
    this.columns = columns;
  }

  /** Whether a live progress line is shown (standard error is a terminal). */
  boolean isTerminal() {
    return terminal;
  }

  /** The terminal's width now; unlimited when standard error is not a terminal. */
  int columns() {
    return terminal ? columns.getAsInt() : Integer.MAX_VALUE;
  }

  /** Replaces the progress line; does nothing when standard error is not a terminal. */
  synchronized void show(String text) {
    if (!terminal) {
      return;
    }
    current = text;
    err.print(CLEAR + text);
    err.flush();
  }

  /** Removes the progress line for good. */
  synchronized void clear() {
    if (terminal && !current.isEmpty()) {
      err.print(CLEAR);
      err.flush();
      current = "";
    }
  }

  /**
   * A stream for log messages: each write clears the progress line first, and on a terminal its lines are wrapped at
   * spaces to the terminal's width, as the summary's are (a log message is written whole, in one write).
   */
  OutputStream logStream() {
    return new OutputStream() {
      private final OutputStream raw = rawStream();

      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] bytes, int off, int len) throws IOException {
        if (!terminal) {
          raw.write(bytes, off, len);
          return;
        }
        String text = new String(bytes, off, len, StandardCharsets.UTF_8);
        String wrapped = String.join(System.lineSeparator(), WordWrap.wrap(text, columns()))
            + (text.endsWith("\n") ? System.lineSeparator() : "");
        byte[] out = wrapped.getBytes(StandardCharsets.UTF_8);
        raw.write(out, 0, out.length);
      }
    };
  }

  /** A stream for whole lines: each write clears the progress line first. */
  private OutputStream rawStream() {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] bytes, int off, int len) {
        synchronized (StatusLine.this) {
          if (terminal && !current.isEmpty()) {
            err.print(CLEAR);
            current = "";
          }
          err.write(bytes, off, len);
          err.flush();
        }
      }
    };
  }

  /** Prints a whole line (a summary line, a warning) without disturbing the progress line's redraw. */
  void println(String line) {
    byte[] bytes = (line + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
    try {
      rawStream().write(bytes, 0, bytes.length);
    } catch (IOException e) {
      throw new IllegalStateException(e); // our stream does not throw
    }
  }

  /**
   * Prints a line over whatever the terminal's current line holds (the progress line, or the {@code ^C} it echoed
   * for a stop signal), wrapped as {@link #printWrapped} wraps it.
   */
  void printOver(String line) {
    synchronized (this) {
      if (terminal) {
        err.print(CLEAR);
        current = "";
      }
    }
    printWrapped(line);
  }

  /**
   * Prints a line of the summary: on a terminal wrapped at spaces to its width, so that no word is split; as it is
   * otherwise, for logs and pipes.
   */
  void printWrapped(String line) {
    println(terminal ? String.join(System.lineSeparator(), WordWrap.wrap(line, columns())) : line);
  }

  /**
   * Whether standard error is a terminal. On Linux, /proc says where file descriptor 2 points; elsewhere the
   * console's view of standard input and output stands in for it.
   */
  static boolean stderrIsTerminal() {
    java.nio.file.Path fd2 = java.nio.file.Path.of("/proc/self/fd/2");
    try {
      String target = java.nio.file.Files.readSymbolicLink(fd2).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (java.io.IOException | UnsupportedOperationException e) {
      // not Linux: fall back to the console
    }
    java.io.Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      return true;
    }
  }
}

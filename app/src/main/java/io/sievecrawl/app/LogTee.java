package io.sievecrawl.app;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;

/**
 * Standard output that also goes, line by line, to the log file (not to the console twice): what {@code bench}
 * prints is in {@code sievecrawl.log} too, with the time of each line.
 */
final class LogTee extends OutputStream {
  private final PrintStream out;
  private final Logger log;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  private LogTee(PrintStream out, Logger log) {
    this.out = out;
    this.log = log;
  }

  /** A stream that prints to {@code out} and logs each whole line to {@code log} at INFO, file only. */
  static PrintStream of(PrintStream out, Logger log) {
    return new PrintStream(new LogTee(out, log), true, StandardCharsets.UTF_8);
  }

  @Override
  public synchronized void write(int b) {
    out.write(b);
    if (b == '\n') {
      log.info(Logging.FILE_ONLY, line.toString(StandardCharsets.UTF_8).stripTrailing());
      line.reset();
    } else {
      line.write(b);
    }
  }

  @Override
  public synchronized void write(byte[] bytes, int off, int len) {
    for (int i = off; i < off + len; i++) {
      write(bytes[i]);
    }
  }

  @Override
  public synchronized void flush() {
    out.flush();
  }
}

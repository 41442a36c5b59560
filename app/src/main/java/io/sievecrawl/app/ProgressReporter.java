package io.sievecrawl.app;

import io.sievecrawl.crawler.CrawlProgress;
import io.sievecrawl.crawler.Crawler;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports a running crawl: a live line on a terminal every second, cut to the terminal's width, otherwise an INFO
 * line every ten seconds. The line says how far the crawl is (done out of done plus queued), how fast, and why it
 * waits when nothing moves.
 */
final class ProgressReporter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger("progress");

  private final Crawler crawler;
  private final StatusLine status;
  private final int width;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "progress");
    t.setDaemon(true);
    return t;
  });
  private final long start = System.nanoTime();
  private long lastFetched;
  private long lastBytes;
  private long lastNanos = start;

  ProgressReporter(Crawler crawler, StatusLine status, boolean live) {
    this.crawler = crawler;
    this.status = status;
    this.width = live ? terminalWidth() : Integer.MAX_VALUE;
    long period = live ? 1 : 10;
    timer.scheduleAtFixedRate(() -> report(live), period, period, TimeUnit.SECONDS);
  }

  private void report(boolean live) {
    CrawlProgress p = crawler.progress();
    long now = System.nanoTime();
    double seconds = (now - lastNanos) / 1e9;
    double rate = (p.fetched() - lastFetched) / seconds;
    double megabytes = (p.bytes() - lastBytes) / 1e6 / seconds;
    lastFetched = p.fetched();
    lastBytes = p.bytes();
    lastNanos = now;
    String line = line(p, rate, megabytes, (now - start) / 1_000_000_000L);
    if (live) {
      status.show(line.length() < width ? line : line.substring(0, Math.max(0, width - 1)));
    } else {
      log.info(line);
    }
  }

  static String line(CrawlProgress p, double pagesPerSecond, double megabytesPerSecond, long elapsedSeconds) {
    long total = p.fetched() + p.queued();
    String waiting = "";
    if (pagesPerSecond < 0.5 && p.pausedOrigins() > 0) {
      waiting = " | waiting: " + p.pausedOrigins() + (p.pausedOrigins() == 1 ? " origin" : " origins") + " paused";
    } else if (pagesPerSecond < 0.5 && p.inFlight() > 0) {
      waiting = " | waiting for " + p.inFlight() + " slow responses";
    }
    return String.format(Locale.ROOT, "%,d/%,d (%d%%) | %.0f p/s | %.1f MB/s | in flight %d | errors %,d%s | %ds",
        p.fetched(), total, total == 0 ? 0 : 100 * p.fetched() / total, pagesPerSecond, megabytesPerSecond,
        p.inFlight(), p.errors(), waiting, elapsedSeconds);
  }

  /** The terminal's width: $COLUMNS, else what {@code stty size} says of /dev/tty, else 80. */
  static int terminalWidth() {
    try {
      String columns = System.getenv("COLUMNS");
      if (columns != null && !columns.isBlank()) {
        return Math.max(20, Integer.parseInt(columns.trim()));
      }
    } catch (NumberFormatException e) {
      // fall through to stty
    }
    try {
      Process stty = new ProcessBuilder("stty", "size").redirectInput(new java.io.File("/dev/tty"))
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out = new String(stty.getInputStream().readAllBytes()).trim();
      if (stty.waitFor(2, TimeUnit.SECONDS) && stty.exitValue() == 0 && out.contains(" ")) {
        return Math.max(20, Integer.parseInt(out.substring(out.indexOf(' ') + 1)));
      }
    } catch (IOException | RuntimeException e) {
      // no tty or no stty
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 80;
  }

  @Override
  public void close() {
    timer.shutdownNow();
    status.clear();
  }
}

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
 * line every ten seconds. The line says what is fetched and queued (not a percentage: the queue grows as links turn
 * up), how fast, where the origins with waiting URLs stand, and why the crawl waits when the politeness delay or
 * slow servers hold it back.
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
    CrawlProgress.Origins o = p.origins();
    StringBuilder origins = new StringBuilder();
    appendCount(origins, o.due(), "due");
    appendCount(origins, o.onDelay(), "on delay");
    appendCount(origins, o.paused(), "paused");
    appendCount(origins, o.givenUp(), "given up");
    String why = "";
    if (o.pacedByDelay()) {
      why = " | paced by the politeness delay";
    } else if (pagesPerSecond < 0.5 && p.inFlight() > 0 && o.due() == 0) {
      why = " | waiting for " + p.inFlight() + " slow responses";
    }
    return String.format(Locale.ROOT, "fetched %,d | queued %,d | %.0f p/s | %.1f MB/s | in flight %d | errors %,d"
            + " | origins %s%s | %s", p.fetched(), p.queued(), pagesPerSecond, megabytesPerSecond, p.inFlight(),
        p.errors(), origins.isEmpty() ? "none waiting" : origins, why, elapsed(elapsedSeconds));
  }

  private static void appendCount(StringBuilder out, long count, String what) {
    if (count > 0) {
      out.append(out.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%,d", count)).append(' ').append(what);
    }
  }

  /** {@code 45s}, {@code 12m05s}, {@code 3h02m}. */
  static String elapsed(long seconds) {
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
    }
    return String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, seconds % 3600 / 60);
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

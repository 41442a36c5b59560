package io.sievecrawl.app;

import io.sievecrawl.crawler.CrawlProgress;
import io.sievecrawl.crawler.Crawler;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports a running crawl: a live line on a terminal every second, otherwise an INFO line every ten seconds.
 */
final class ProgressReporter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger("progress");

  private final Crawler crawler;
  private final StatusLine status;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "progress");
    t.setDaemon(true);
    return t;
  });
  private final long start = System.nanoTime();
  private long lastFetched;
  private long lastNanos = start;

  ProgressReporter(Crawler crawler, StatusLine status, boolean live) {
    this.crawler = crawler;
    this.status = status;
    long period = live ? 1 : 10;
    timer.scheduleAtFixedRate(() -> report(live), period, period, TimeUnit.SECONDS);
  }

  private void report(boolean live) {
    CrawlProgress p = crawler.progress();
    long now = System.nanoTime();
    double rate = (p.fetched() - lastFetched) / ((now - lastNanos) / 1e9);
    lastFetched = p.fetched();
    lastNanos = now;
    String line = String.format(Locale.ROOT,
        "%d pages (%.0f/s) | queued %d | in flight %d | errors %d | filter %.2f%% full, fpp %.2g | %ds",
        p.fetched(), rate, p.queued(), p.inFlight(), p.errors(), 100 * p.filterFill(), p.currentFpp(),
        (now - start) / 1_000_000_000L);
    if (live) {
      status.show(line);
    } else {
      log.info(line);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    status.clear();
  }
}

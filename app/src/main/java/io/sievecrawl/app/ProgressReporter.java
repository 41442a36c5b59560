package io.sievecrawl.app;

import io.sievecrawl.crawler.Crawler;
import io.sievecrawl.crawler.report.CrawlProgress;
import io.sievecrawl.sieve.Ticker;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports a running crawl: a live line on a terminal every second, fitted to the terminal's width at that moment,
 * otherwise an INFO line every ten seconds. The line ({@link ProgressLine}) says what is fetched and queued (not a
 * percentage: the queue grows as links turn up), how fast, where the origins with waiting URLs stand, and why the
 * crawl waits when the politeness delay or slow servers hold it back.
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
  private final Ticker ticker;
  private final long start;
  private long lastFetched;
  private long lastBytes;
  private long lastNanos;

  /** @param ticker what the rates and the time since the start are measured on */
  ProgressReporter(Crawler crawler, StatusLine status, boolean live, Ticker ticker) {
    this.crawler = crawler;
    this.status = status;
    this.ticker = ticker;
    this.start = ticker.nanos();
    this.lastNanos = start;
    CrawlProgress atStart = crawler.progress(); // a resumed crawl's count starts at the earlier runs' pages
    this.lastFetched = atStart.fetched();
    this.lastBytes = atStart.bytes();
    long period = live ? 1 : 10;
    timer.scheduleAtFixedRate(() -> report(live), period, period, TimeUnit.SECONDS);
  }

  private void report(boolean live) {
    List<String> fields = fieldsNow();
    if (live) {
      status.show(ProgressLine.fit(fields, status.columns())); // asked each time: the terminal may have been resized
    } else {
      log.info(ProgressLine.line(fields));
    }
  }

  /** The line's fields now, with the rates since the last line (or the start). */
  synchronized List<String> fieldsNow() {
    CrawlProgress p = crawler.progress();
    long now = ticker.nanos();
    double seconds = Math.max(1e-9, (now - lastNanos) / 1e9);
    double rate = (p.fetched() - lastFetched) / seconds;
    double megabytes = (p.bytes() - lastBytes) / 1e6 / seconds;
    lastFetched = p.fetched();
    lastBytes = p.bytes();
    lastNanos = now;
    return ProgressLine.fields(p, rate, megabytes, (now - start) / 1_000_000_000L);
  }

  @Override
  public void close() {
    timer.shutdownNow();
    status.clear();
  }
}

package io.sievecrawl.crawler.home;

import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.sieve.redis.SharedState;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A results sink that also counts each result into the crawl's counters shared by every agent (pages, bytes, status
 * classes, error kinds), sent to Redis in one batch by {@link #flush()} (every second, when the home saves, and
 * at the end).
 */
final class SharedCounters implements ResultSink {
  private final ResultSink results;
  private final SharedState shared;
  private final Map<String, LongAdder> pending = new ConcurrentHashMap<>();

  SharedCounters(ResultSink results, SharedState shared) {
    this.results = results;
    this.shared = shared;
  }

  @Override
  public void accept(CrawlResult result) throws IOException {
    results.accept(result);
    if (result.errorKind() == ErrorKind.ROBOTS_DISALLOWED || result.errorKind() == ErrorKind.ROBOTS_UNAVAILABLE
        || result.errorKind() == ErrorKind.ORIGIN_UNREACHABLE) { // no request was sent for these
      add("skipped", 1);
      return;
    }
    add("pages", 1);
    add("bytes", result.bytes());
    add("status:" + result.statusClass(), 1);
    if (result.status() != null) {
      add("responses", 1);
    }
    if (result.errorKind() != null) {
      add("error:" + result.errorKind().name().toLowerCase(java.util.Locale.ROOT), 1);
    }
  }

  private void add(String field, long delta) {
    pending.computeIfAbsent(field, f -> new LongAdder()).add(delta);
  }

  /** Sends the counts gathered since the last send. */
  void send() {
    Map<String, Long> deltas = new TreeMap<>();
    pending.forEach((field, adder) -> {
      long n = adder.sumThenReset();
      if (n != 0) {
        deltas.put(field, n);
      }
    });
    shared.addCounters(deltas);
  }

  /** Sends the counts gathered, then flushes the results (which are written line by line already). */
  @Override
  public void flush() throws IOException {
    send();
    results.flush();
  }
}

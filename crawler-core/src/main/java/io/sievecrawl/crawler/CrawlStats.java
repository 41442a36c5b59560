package io.sievecrawl.crawler;

import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Counters updated by every worker; cheap to update, summed when read. */
final class CrawlStats {
  final LongAdder fetched = new LongAdder();
  final LongAdder requisites = new LongAdder(); // of those fetched
  final LongAdder responses = new LongAdder();
  final LongAdder inFlight = new LongAdder();
  final LongAdder retries = new LongAdder();
  final LongAdder bytes = new LongAdder();
  final LongAdder errors = new LongAdder();
  final LongAdder truncated = new LongAdder();
  private final Map<String, LongAdder> byStatusClass = new ConcurrentHashMap<>();
  private final Map<ErrorKind, LongAdder> byError = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> skipped = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> notAdmitted = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> visits = new ConcurrentHashMap<>();

  void record(CrawlResult result) {
    fetched.increment();
    if (result.requisite()) {
      requisites.increment();
    }
    if (result.status() != null) {
      responses.increment();
    }
    bytes.add(result.bytes());
    if (result.truncated()) {
      truncated.increment();
    }
    byStatusClass.computeIfAbsent(result.statusClass(), k -> new LongAdder()).increment();
    if (result.errorKind() != null) {
      errors.increment();
      byError.computeIfAbsent(result.errorKind(), k -> new LongAdder()).increment();
    }
  }

  /**
   * What a fetch found of its URL's last visit: {@code unchanged} (a revisit), {@code changed}, {@code gone} (404
   * or 410), {@code failed} (no answer, 5xx), or {@code new} (no last visit).
   */
  void visited(String kind) {
    visits.computeIfAbsent(kind, k -> new LongAdder()).increment();
  }

  /** An admitted URL that will not be fetched (robots.txt, a budget, the page limit). */
  void skip(String reason) {
    skipped.computeIfAbsent(reason, k -> new LongAdder()).increment();
  }

  /**
   * Links and redirect targets refused before the frontier (out of scope, a trap, a redirect to a seen URL, past the
   * per-page cap).
   */
  void notAdmitted(String reason) {
    notAdmitted(reason, 1);
  }

  void notAdmitted(String reason, long count) {
    notAdmitted.computeIfAbsent(reason, k -> new LongAdder()).add(count);
  }

  Map<String, Long> byStatusClass() {
    return snapshot(byStatusClass);
  }

  Map<ErrorKind, Long> byError() {
    return snapshot(byError);
  }

  Map<String, Long> skipped() {
    return snapshot(skipped);
  }

  Map<String, Long> notAdmitted() {
    return snapshot(notAdmitted);
  }

  Map<String, Long> visits() {
    return snapshot(visits);
  }

  private static <K extends Comparable<K>> Map<K, Long> snapshot(Map<K, LongAdder> counters) {
    Map<K, Long> copy = new TreeMap<>();
    counters.forEach((k, v) -> copy.put(k, v.sum()));
    return Collections.unmodifiableMap(copy);
  }
}

package io.sievecrawl.crawler.report;

import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The run's counters, added to by every worker as the lease pipeline goes: cheap to update, summed when read for the
 * summary and the progress line.
 */
public final class CrawlStats {
  private final LongAdder fetched = new LongAdder();
  private final LongAdder requisites = new LongAdder(); // of those fetched
  private final LongAdder responses = new LongAdder();
  private final LongAdder inFlight = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder truncated = new LongAdder();
  private final Map<String, LongAdder> byStatusClass = new ConcurrentHashMap<>();
  private final Map<ErrorKind, LongAdder> byError = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> skipped = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> notAdmitted = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> visits = new ConcurrentHashMap<>();

  /** A fetch recorded: counted by status class, error kind, bytes, truncation. */
  public void record(CrawlResult result) {
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
  public void visited(String kind) {
    visits.computeIfAbsent(kind, k -> new LongAdder()).increment();
  }

  /** An admitted URL that will not be fetched (robots.txt, a budget, the page limit). */
  public void skip(SkipReason reason) {
    skipped.computeIfAbsent(reason.wireName(), k -> new LongAdder()).increment();
  }

  /**
   * Links and redirect targets refused before the frontier (out of scope, a trap, a redirect to a seen URL, past the
   * per-page cap).
   */
  public void notAdmitted(SkipReason reason) {
    notAdmitted(reason, 1);
  }

  public void notAdmitted(SkipReason reason, long count) {
    notAdmitted.computeIfAbsent(reason.wireName(), k -> new LongAdder()).add(count);
  }

  /** A page's requisite refused before the frontier, counted apart from links: {@code requisite-out-of-scope-...}. */
  public void requisiteNotAdmitted(SkipReason reason) {
    notAdmitted.computeIfAbsent(reason.ofRequisite(), k -> new LongAdder()).increment();
  }

  /** A lease goes into the pipeline: it is in flight until {@link #leaseEnded()}. */
  public void leaseStarted() {
    inFlight.increment();
  }

  public void leaseEnded() {
    inFlight.decrement();
  }

  /** A fetch handed back to be tried again. */
  public void retried() {
    retries.increment();
  }

  /** Fetches recorded, requisites included. */
  public long fetched() {
    return fetched.sum();
  }

  /** Of the fetches recorded, the requisites. */
  public long requisites() {
    return requisites.sum();
  }

  /** Fetches recorded that got a response (a status). */
  public long responses() {
    return responses.sum();
  }

  /** Leases in the pipeline now. */
  public long inFlight() {
    return inFlight.sum();
  }

  public long retries() {
    return retries.sum();
  }

  /** Body bytes of the fetches recorded. */
  public long bytes() {
    return bytes.sum();
  }

  /** Fetches recorded with an error. */
  public long errors() {
    return errors.sum();
  }

  /** Fetches recorded whose body was cut at its cap. */
  public long truncated() {
    return truncated.sum();
  }

  public Map<String, Long> byStatusClass() {
    return snapshot(byStatusClass);
  }

  public Map<ErrorKind, Long> byError() {
    return snapshot(byError);
  }

  /** Admitted URLs not fetched, by the {@link SkipReason#wireName()} of why. */
  public Map<String, Long> skipped() {
    return snapshot(skipped);
  }

  /** URLs refused before the frontier, by the {@link SkipReason#wireName()} of why. */
  public Map<String, Long> notAdmitted() {
    return snapshot(notAdmitted);
  }

  public Map<String, Long> visits() {
    return snapshot(visits);
  }

  private static <K extends Comparable<K>> Map<K, Long> snapshot(Map<K, LongAdder> counters) {
    Map<K, Long> copy = new TreeMap<>();
    counters.forEach((k, v) -> copy.put(k, v.sum()));
    return Collections.unmodifiableMap(copy);
  }
}

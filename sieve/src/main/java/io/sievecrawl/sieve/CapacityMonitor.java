package io.sievecrawl.sieve;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one WARN when a filter's estimated element count first exceeds its capacity n, then again at 2n, 4n, ...
 *
 * <p>Used by every {@link Frontier} implementation. {@link #check()} is cheap enough to call after every admission: a volatile read and a comparison until the
 * next level is reached. The level is compared in set bits, precomputed from the size estimate's inverse.
 */
public final class CapacityMonitor {
  /** The stable start of the warning, for users to grep logs for. */
  static final String PHRASE = "URL filter over capacity";

  private static final Logger log = LoggerFactory.getLogger(CapacityMonitor.class);

  private final BloomFilter filter;
  private final String capacityKey;
  private final long capacity;
  private long level; // guarded by this: the estimate at which the next warning is due
  private volatile long levelBits; // the set-bit count at or above which the estimate may exceed level
  private int warnings; // guarded by this

  /** Watches {@code filter}; the warning tells the user to raise {@code capacityKey}. */
  public CapacityMonitor(BloomFilter filter, String capacityKey) {
    this.filter = filter;
    this.capacityKey = capacityKey;
    this.capacity = filter.expectedInsertions();
    setLevel(capacity);
  }

  /** Logs a warning if the estimated size has passed the next level since the last call. */
  public void check() {
    if (filter.bitCount() >= levelBits) {
      warnIfOverLevel();
    }
  }

  /** Warnings logged so far. */
  public synchronized int warnings() {
    return warnings;
  }

  private synchronized void warnIfOverLevel() {
    double estimate = filter.estimateElements(filter.bitCount());
    if (estimate <= level) {
      return;
    }
    long crossed = level;
    while (estimate > level && level <= Long.MAX_VALUE / 2) {
      crossed = level;
      setLevel(level * 2);
    }
    if (level > Long.MAX_VALUE / 2) { // the filter is saturated: nothing further to warn about
      levelBits = Long.MAX_VALUE;
    }
    warnings++;
    log.warn("{}: about {} distinct URLs seen, more than {} (the filter's capacity n = {}); its false-positive"
            + " rate is now {} against a target of {}, so new URLs are increasingly dropped as duplicates."
            + " Raise {} for the next crawl.",
        PHRASE, (long) Math.ceil(estimate), multiple(crossed), capacity, formatRate(filter.expectedFpp()),
        formatRate(filter.targetFpp()), capacityKey);
  }

  private String multiple(long crossedLevel) {
    long factor = crossedLevel / capacity;
    return factor == 1 ? String.valueOf(crossedLevel) : crossedLevel + " (" + factor + "n)";
  }

  private void setLevel(long newLevel) {
    level = newLevel;
    double m = filter.bitSize();
    // Inverse of s = -(m/k) ln(1 - X/m): the estimate exceeds newLevel only once X exceeds this.
    double bits = -m * Math.expm1(-(double) filter.hashCount() * newLevel / m);
    levelBits = (long) Math.floor(bits);
  }

  static String formatRate(double rate) {
    return String.format(java.util.Locale.ROOT, "%.3g", rate);
  }
}

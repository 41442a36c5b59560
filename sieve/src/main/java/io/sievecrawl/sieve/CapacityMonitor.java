package io.sievecrawl.sieve;

import java.util.Locale;
import java.util.function.IntSupplier;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
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

  private final BloomSizing sizing;
  private final LongSupplier setBits;
  private final LongPredicate firstToWarn;
  private final String capacityKey;
  private final long capacity;
  private final boolean confirmed;
  private final LongFunction<String> growth; // null: the user is told to resume with a larger n
  private final int parts; // the filter's parts: the monitor watches its fullest
  private final IntSupplier fullestPart;
  private long level; // guarded by this: the estimate at which the next warning is due
  private volatile long levelBits; // the set-bit count at or above which the estimate may exceed level
  private int warnings; // guarded by this

  /** Watches {@code filter}; the warning tells the user to raise {@code capacityKey}. */
  public CapacityMonitor(BloomFilter filter, String capacityKey) {
    this(filter, capacityKey, false);
  }

  /**
   * Watches {@code filter}, which an exact store confirms when {@code confirmed} (the warning then says that no URL
   * is lost, only look-ups grow).
   */
  public CapacityMonitor(BloomFilter filter, String capacityKey, boolean confirmed) {
    this(filter.sizing(), filter::bitCount, level -> true, capacityKey, confirmed, null);
  }

  /**
   * Watches {@code filter}, which an exact store confirms and which can grow (now, or when its crawl resumes): at
   * each level passed, {@code growth} is given the capacity suggested and answers what it does about it, in a
   * sentence the warning ends with.
   */
  public CapacityMonitor(BloomFilter filter, String capacityKey, LongFunction<String> growth) {
    this(filter.sizing(), filter::bitCount, level -> true, capacityKey, true, growth);
  }

  /**
   * A monitor of a filter that replaces {@code previous}'s: the warnings already logged count, and the next level is
   * above the estimate now.
   */
  public CapacityMonitor(BloomFilter filter, CapacityMonitor previous) {
    this(filter.sizing(), filter::bitCount, level -> true, previous.capacityKey, previous.confirmed,
        previous.growth);
    synchronized (this) {
      warnings = previous.warnings();
    }
  }

  /**
   * Watches a filter of {@code sizing} kept elsewhere, whose set bits {@code setBits} reads; when several processes
   * watch one filter, {@code firstToWarn} says whether this one is the first to reach a level (only it logs).
   */
  public CapacityMonitor(BloomSizing sizing, LongSupplier setBits, LongPredicate firstToWarn, String capacityKey) {
    this(sizing, setBits, firstToWarn, capacityKey, false);
  }

  /** As {@link #CapacityMonitor(BloomSizing, LongSupplier, LongPredicate, String)}, for a filter confirmed or not. */
  public CapacityMonitor(BloomSizing sizing, LongSupplier setBits, LongPredicate firstToWarn, String capacityKey,
      boolean confirmed) {
    this(sizing, setBits, firstToWarn, capacityKey, confirmed, null);
  }

  /**
   * Watches the fullest of {@code parts} equal parts of a filter kept elsewhere, each of {@code partSizing}: a part
   * holds the URLs of some origins only, so one busy origin can fill its part while the others stay empty.
   * {@code fullestBits} reads the set bits of the fullest part, {@code fullestPart} says which it is; the warning
   * names the part and suggests a capacity for the whole filter at which that part holds what it holds now.
   */
  public static CapacityMonitor ofFullestPart(BloomSizing partSizing, int parts, LongSupplier fullestBits,
      IntSupplier fullestPart, LongPredicate firstToWarn, String capacityKey, boolean confirmed) {
    return new CapacityMonitor(partSizing, fullestBits, firstToWarn, capacityKey, confirmed, null, parts,
        fullestPart);
  }

  private CapacityMonitor(BloomSizing sizing, LongSupplier setBits, LongPredicate firstToWarn, String capacityKey,
      boolean confirmed, LongFunction<String> growth) {
    this(sizing, setBits, firstToWarn, capacityKey, confirmed, growth, 1, () -> 0);
  }

  private CapacityMonitor(BloomSizing sizing, LongSupplier setBits, LongPredicate firstToWarn, String capacityKey,
      boolean confirmed, LongFunction<String> growth, int parts, IntSupplier fullestPart) {
    this.parts = parts;
    this.fullestPart = fullestPart;
    this.confirmed = confirmed;
    this.growth = growth;
    this.sizing = sizing;
    this.setBits = setBits;
    this.firstToWarn = firstToWarn;
    this.capacityKey = capacityKey;
    this.capacity = sizing.expectedInsertions();
    setLevel(capacity);
  }

  /** Logs a warning if the estimated size has passed the next level since the last call. */
  public void check() {
    if (setBits.getAsLong() >= levelBits) {
      warnIfOverLevel();
    }
  }

  /** Warnings logged so far. */
  public synchronized int warnings() {
    return warnings;
  }

  private synchronized void warnIfOverLevel() {
    long bits = setBits.getAsLong();
    // Every bit set: the estimate is infinite. The URLs seen are at least as many as fill all bits but one.
    double estimate = sizing.estimateElements(Math.min(bits, sizing.bits() - 1));
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
    if (!firstToWarn.test(crossed)) {
      return; // another process sharing the filter warned about this level
    }
    double fpp = sizing.fppAtSetBits(bits);
    // Just past n the rate may still be under the target (the filter is sized to hold it at n): say where it goes.
    String rate = "its false-positive rate is " + formatRate(fpp) + " now, " + (fpp < sizing.targetFpp()
        ? "under the target " + formatRate(sizing.targetFpp()) + ", and passes it as more URLs come"
        : "over the target " + formatRate(sizing.targetFpp()) + " and climbing with every new URL");
    String seen = parts == 1
        ? "about " + thousands((long) Math.ceil(estimate)) + " distinct URLs seen, more than " + multiple(crossed)
            + " (the filter's capacity n = " + thousands(capacity) + ")"
        : "about " + thousands((long) Math.ceil(estimate)) + " distinct URLs seen in the filter's fullest part, that of"
            + " origin shard " + fullestPart.getAsInt() + " of " + parts + ", more than " + multiple(crossed)
            + " (a part's capacity n/" + parts + " = " + thousands(capacity) + "; the URLs of a shard's origins all go"
            + " to its part)";
    long suggested = suggestedCapacity(estimate * parts);
    if (confirmed) {
      String done = growth != null ? growth.apply(suggested) : "Raise " + capacityKey + " to "
          + thousands(suggested) + " or more for the next crawl.";
      log.warn("{}: {}; {}; the exact store confirms every URL it takes for seen, so none is lost, but more of them go"
          + " to the store and the crawl slows. {}", PHRASE, seen, rate, done);
      return;
    }
    log.warn("{}: {}; {}; new URLs it takes for seen are dropped. Raise {} to {} or more for the next crawl.",
        PHRASE, seen, rate, capacityKey, thousands(suggested));
  }

  /**
   * A capacity for a crawl that saw {@code seen} URLs: twice as many (a crawl that filled its filter had not
   * finished finding URLs), rounded up to two significant digits.
   */
  public static long suggestedCapacity(double seen) {
    double twice = Math.max(2 * seen, 100);
    double unit = Math.pow(10, Math.floor(Math.log10(twice)) - 1);
    return (long) (Math.ceil(twice / unit) * unit);
  }

  private String multiple(long crossedLevel) {
    long factor = crossedLevel / capacity;
    return thousands(crossedLevel) + (factor == 1 ? "" : " (" + factor + "n)");
  }

  private static String thousands(long count) {
    return String.format(Locale.ROOT, "%,d", count);
  }

  private void setLevel(long newLevel) {
    level = newLevel;
    double m = sizing.bits();
    // Inverse of s = -(m/k) ln(1 - X/m): the estimate exceeds newLevel only once X exceeds this.
    double bits = -m * Math.expm1(-(double) sizing.hashCount() * newLevel / m);
    levelBits = (long) Math.floor(bits);
  }

  static String formatRate(double rate) {
    return String.format(java.util.Locale.ROOT, "%.3g", rate);
  }
}

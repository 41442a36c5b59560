package io.sievecrawl.sieve;

import java.util.Locale;
import java.util.function.DoubleSupplier;
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
  private final DoubleSupplier estimate; // of a filter whose parts grow; null: the estimate is read off setBits
  private long level; // guarded by this: the estimate at which the next warning is due
  private volatile long levelBits; // the set-bit count at or above which the estimate may exceed level
  private volatile double levelEstimate; // level, for a filter whose estimate is read whole
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
   * Watches a filter of capacity {@code n} at rate {@code p} kept elsewhere whose parts grow a layer at a time where
   * they fill (a spread crawl's, whose false-positive rate therefore stays under p): {@code estimate} reads the URLs
   * it holds, summed over its parts. Past n, 2n, 4n, ... the warning says the crawl holds more than n planned for, in
   * memory rather than in lost URLs.
   */
  public static CapacityMonitor ofGrowingParts(long n, double p, DoubleSupplier estimate, LongPredicate firstToWarn,
      String capacityKey, boolean confirmed) {
    return new CapacityMonitor(BloomSizing.of(n, p), () -> 0, firstToWarn, capacityKey, confirmed, null, estimate);
  }

  private CapacityMonitor(BloomSizing sizing, LongSupplier setBits, LongPredicate firstToWarn, String capacityKey,
      boolean confirmed, LongFunction<String> growth) {
    this(sizing, setBits, firstToWarn, capacityKey, confirmed, growth, null);
  }

  private CapacityMonitor(BloomSizing sizing, LongSupplier setBits, LongPredicate firstToWarn, String capacityKey,
      boolean confirmed, LongFunction<String> growth, DoubleSupplier estimate) {
    this.estimate = estimate;
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
    if (estimate != null ? estimate.getAsDouble() > levelEstimate : setBits.getAsLong() >= levelBits) {
      warnIfOverLevel();
    }
  }

  /**
   * Logs, at INFO, that a part of a filter that grows ({@link #ofGrowingParts}) took a layer: {@code part} of
   * {@code parts}, now of {@code layers} layers, held {@code held} URLs at its capacity; the new layer, of
   * {@code sizing}, holds as many more as its capacity at its lower rate.
   */
  public void partGrew(int part, int parts, int layers, long held, BloomSizing sizing) {
    log.info("URL filter: the part of origin shard {} of {} holds about {} URLs, its capacity, and grows a layer for {}"
        + " more (layer {}, at false-positive rate {}, {} of Redis memory as it fills{}): the URLs of a shard's origins"
        + " all go to its part, so a crawl of a few busy sites fills theirs first. No more URLs are taken for seen for"
        + " it: each new layer's rate is half the one before, so the part stays under the target p = {}.",
        part, parts, thousands(held), thousands(sizing.expectedInsertions()), layers - 1,
        formatRate(sizing.targetFpp()), bytes(sizing.bytes()), confirmed ? ", with its part of the exact store" : "",
        formatRate(this.sizing.targetFpp()));
  }

  private static String bytes(long bytes) {
    return bytes >= 10L << 20 ? thousands(bytes >> 20) + " MB" : thousands(Math.max(1, bytes >> 10)) + " KB";
  }

  /** Warnings logged so far. */
  public synchronized int warnings() {
    return warnings;
  }

  private synchronized void warnIfOverLevel() {
    long bits = setBits.getAsLong();
    // Every bit set: the estimate is infinite. The URLs seen are at least as many as fill all bits but one.
    double estimate = this.estimate != null ? this.estimate.getAsDouble()
        : sizing.estimateElements(Math.min(bits, sizing.bits() - 1));
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
      levelEstimate = Double.POSITIVE_INFINITY;
    }
    warnings++;
    if (!firstToWarn.test(crossed)) {
      return; // another process sharing the filter warned about this level
    }
    if (this.estimate != null) {
      log.warn("{}: about {} distinct URLs seen, more than {} (the filter's capacity n = {}); its parts grow a layer"
          + " at a time where they fill, so new URLs are still taken for seen less often than the target p = {}{}, but"
          + " the filter{} takes more Redis memory than n planned for. Raise {} to {} or more for the next crawl.",
          PHRASE, thousands((long) Math.ceil(estimate)), multiple(crossed), thousands(capacity),
          formatRate(sizing.targetFpp()), confirmed ? " (and the exact store admits those)" : "",
          confirmed ? " with its exact store" : "", capacityKey, thousands(suggestedCapacity(estimate)));
      return;
    }
    double fpp = sizing.fppAtSetBits(bits);
    // Just past n the rate may still be under the target (the filter is sized to hold it at n): say where it goes.
    String rate = "its false-positive rate is " + formatRate(fpp) + " now, " + (fpp < sizing.targetFpp()
        ? "under the target " + formatRate(sizing.targetFpp()) + ", and passes it as more URLs come"
        : "over the target " + formatRate(sizing.targetFpp()) + " and climbing with every new URL");
    String seen = "about " + thousands((long) Math.ceil(estimate)) + " distinct URLs seen, more than "
        + multiple(crossed) + " (the filter's capacity n = " + thousands(capacity) + ")";
    long suggested = suggestedCapacity(estimate);
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
    levelEstimate = newLevel;
    double m = sizing.bits();
    // Inverse of s = -(m/k) ln(1 - X/m): the estimate exceeds newLevel only once X exceeds this.
    double bits = -m * Math.expm1(-(double) sizing.hashCount() * newLevel / m);
    levelBits = (long) Math.floor(bits);
  }

  static String formatRate(double rate) {
    return String.format(java.util.Locale.ROOT, "%.3g", rate);
  }
}

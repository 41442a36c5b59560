package io.sievecrawl.sieve;

/**
 * A snapshot of a {@link Sieve}'s counters and its filter's state.
 *
 * @param admitted URLs admitted and queued since the sieve was created
 * @param duplicatesDropped pushes refused because the filter had seen the URL, or believed so (false positives)
 * @param queued tasks waiting to be handed out
 * @param inFlight tasks handed out and not yet completed
 * @param capacity n, the number of distinct URLs the filter was sized for
 * @param targetFpp p, the false-positive rate wanted at n
 * @param filterBits m, bits allocated
 * @param setBits X, bits set
 * @param estimatedUrls the filter's estimate of distinct URLs it holds, {@code -(m/k) ln(1 - X/m)}
 * @param currentFpp the false-positive rate a new URL meets now
 * @param capacityWarnings capacity warnings logged so far
 */
public record SieveStats(
    long admitted,
    long duplicatesDropped,
    long queued,
    long inFlight,
    long capacity,
    double targetFpp,
    long filterBits,
    long setBits,
    long estimatedUrls,
    double currentFpp,
    int capacityWarnings) {

  /** The counters of a frontier over {@code filter}, with the filter's state read now. */
  public static SieveStats of(long admitted, long duplicatesDropped, long queued, long inFlight, BloomFilter filter,
      int capacityWarnings) {
    return of(admitted, duplicatesDropped, queued, inFlight, filter.sizing(), filter.bitCount(), capacityWarnings);
  }

  /** The counters of a frontier over a filter of {@code sizing} with {@code setBits} bits set. */
  public static SieveStats of(long admitted, long duplicatesDropped, long queued, long inFlight, BloomSizing sizing,
      long setBits, int capacityWarnings) {
    double estimate = sizing.estimateElements(setBits);
    return new SieveStats(admitted, duplicatesDropped, queued, inFlight, sizing.expectedInsertions(),
        sizing.targetFpp(), sizing.bits(), setBits, Double.isInfinite(estimate) ? Long.MAX_VALUE : Math.round(estimate),
        sizing.fppAtSetBits(setBits), capacityWarnings);
  }

  /** Fraction of the filter's bits set. */
  public double fillRatio() {
    return (double) setBits / filterBits;
  }

  /**
   * Expected number of new URLs wrongly dropped as duplicates so far: the filter's false-positive rate
   * integrated over the admissions, approximated by the current rate times the admitted count (an upper bound,
   * since the rate only grows).
   */
  public double estimatedFalsePositiveDrops() {
    return currentFpp * admitted;
  }
}

package io.sievecrawl.sieve;

/**
 * A snapshot of a {@link Sieve}'s counters and its filter's state.
 *
 * @param admitted URLs admitted and queued since the sieve was created
 * @param duplicatesDropped pushes refused because the filter had seen the URL, or believed so (false positives)
 * @param queued tasks waiting to be handed out
 * @param inFlight tasks handed out and not yet completed
 * @param queues queues (origins) holding waiting tasks, checked out or in line
 * @param capacity n, the number of distinct URLs the filter was sized for
 * @param targetFpp p, the false-positive rate wanted at n
 * @param filterBits m, bits allocated
 * @param setBits X, bits set
 * @param estimatedUrls the filter's estimate of distinct URLs it holds, {@code -(m/k) ln(1 - X/m)}
 * @param currentFpp the false-positive rate a new URL meets now
 * @param capacityWarnings capacity warnings logged so far
 * @param estimatedFalsePositiveDrops expected number of new URLs among the duplicates dropped: see
 *     {@link BloomSizing#expectedFalsePositives}, never more than {@code duplicatesDropped}; 0 when confirmed
 * @param confirmed whether an exact store settles the filter's "maybe seen" answers, so that no new URL is dropped
 * @param rescued URLs the filter took for seen and the exact store found new, and admitted: a count, not an estimate
 */
public record SieveStats(
    long admitted,
    long duplicatesDropped,
    long queued,
    long inFlight,
    long queues,
    long capacity,
    double targetFpp,
    long filterBits,
    long setBits,
    long estimatedUrls,
    double currentFpp,
    int capacityWarnings,
    double estimatedFalsePositiveDrops,
    boolean confirmed,
    long rescued) {

  /** The counters of a frontier over {@code filter} alone, with the filter's state read now. */
  public static SieveStats of(long admitted, long duplicatesDropped, long queued, long inFlight, long queues,
      BloomFilter filter, int capacityWarnings) {
    return of(admitted, duplicatesDropped, queued, inFlight, queues, filter, capacityWarnings, false, 0);
  }

  /** The counters of a frontier over {@code filter}, confirmed by an exact store or not. */
  public static SieveStats of(long admitted, long duplicatesDropped, long queued, long inFlight, long queues,
      BloomFilter filter, int capacityWarnings, boolean confirmed, long rescued) {
    return of(admitted, duplicatesDropped, queued, inFlight, queues, filter.sizing(), filter.bitCount(),
        capacityWarnings, confirmed, rescued);
  }

  /** The counters of a frontier over a filter of {@code sizing} alone with {@code setBits} bits set. */
  public static SieveStats of(long admitted, long duplicatesDropped, long queued, long inFlight, long queues,
      BloomSizing sizing, long setBits, int capacityWarnings) {
    return of(admitted, duplicatesDropped, queued, inFlight, queues, sizing, setBits, capacityWarnings, false, 0);
  }

  /** The counters of a frontier over a filter of {@code sizing} with {@code setBits} bits set. */
  public static SieveStats of(long admitted, long duplicatesDropped, long queued, long inFlight, long queues,
      BloomSizing sizing, long setBits, int capacityWarnings, boolean confirmed, long rescued) {
    double estimate = sizing.estimateElements(setBits);
    // A false positive is a dropped duplicate that was new: the estimate cannot exceed the drops it is part of.
    double falsePositives = confirmed ? 0 : Math.min(duplicatesDropped,
        Double.isInfinite(estimate) ? duplicatesDropped : sizing.expectedFalsePositives(estimate));
    return new SieveStats(admitted, duplicatesDropped, queued, inFlight, queues, sizing.expectedInsertions(),
        sizing.targetFpp(), sizing.bits(), setBits, Double.isInfinite(estimate) ? Long.MAX_VALUE : Math.round(estimate),
        sizing.fppAtSetBits(setBits), capacityWarnings, falsePositives, confirmed, rescued);
  }

  /** Fraction of the filter's bits set. */
  public double fillRatio() {
    return (double) setBits / filterBits;
  }
}

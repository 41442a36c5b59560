package io.sievecrawl.sieve;

/**
 * The size of a Bloom filter for {@code n} expected insertions at a target false-positive rate {@code p}:
 * the classical figures and what this project's blocked layout actually allocates.
 *
 * <p>Classical sizing: {@code m = -n ln p / (ln 2)^2} bits and {@code k = -ln p / ln 2} probes (rounded to the
 * nearest integer, at least 1). {@link BloomFilter} keeps all k bits of an element in one 512-bit block, which
 * loads blocks unevenly, so it allocates {@link #bits()} &ge; {@link #classicalBits()}: the fewest whole blocks
 * for which the expected false-positive rate at n insertions is at most 0.9 p. That costs about +6% at p = 1%,
 * +10% at 0.1%, +16% at 0.01% and +26% at 0.001%.
 *
 * @param expectedInsertions n, the number of distinct elements the filter is sized for
 * @param targetFpp p, the false-positive rate wanted after n insertions
 * @param classicalBits the classical m, rounded up
 * @param hashCount k, the number of bits set per element
 * @param blocks the number of 512-bit blocks allocated
 */
public record BloomSizing(long expectedInsertions, double targetFpp, long classicalBits, int hashCount, long blocks) {

  /** Bits in one block: one 64-byte cache line. */
  public static final int BLOCK_BITS = 512;
  /** The smallest target false-positive rate accepted; below it a 512-bit block cannot hold k bits well. */
  public static final double MIN_FPP = 1e-10;
  /** The largest filter: its words must fit one Java {@code long[]} (about 17 GB). */
  public static final long MAX_BLOCKS = (Integer.MAX_VALUE - 8) / 8;

  /*
   * Why 0.9 p: the block model below is exact only for ideal hashing, and a filter sized for exactly p would
   * exceed p about half the time. Ten per cent of headroom keeps the measured rate under p (see
   * BloomFilterFalsePositiveIT) for a few per cent more memory.
   */
  private static final double SIZING_HEADROOM = 0.9;
  private static final double LN2 = Math.log(2);

  public BloomSizing {
    checkArguments(expectedInsertions, targetFpp);
    Validate.isTrue(hashCount >= 1 && blocks >= 1 && blocks <= MAX_BLOCKS,
        "hash count (%s) and blocks (%s) must be positive, blocks at most %s", hashCount, blocks, MAX_BLOCKS);
  }

  /**
   * Sizes a filter for {@code n} distinct insertions at false-positive rate {@code p}.
   *
   * @throws IllegalArgumentException if n &lt; 1, p is outside [{@value #MIN_FPP}, 1), or the filter would exceed
   *     {@value #MAX_BLOCKS} blocks
   */
  public static BloomSizing of(long n, double p) {
    checkArguments(n, p);
    long classicalBits = classicalBits(n, p);
    int k = classicalHashCount(p);
    double target = SIZING_HEADROOM * p;
    long lo = Math.max(1, classicalBits / BLOCK_BITS);
    long hi = lo;
    while (blockedFpp((double) n / hi, k) > target) {
      Validate.isTrue(hi <= MAX_BLOCKS,
          "a filter for n=%s at p=%s would need more than %s bits, the most one filter can hold",
          n, p, MAX_BLOCKS * BLOCK_BITS);
      lo = hi;
      hi = Math.min(hi * 2, MAX_BLOCKS + 1);
    }
    while (lo < hi) { // fewest blocks meeting the target
      long mid = lo + (hi - lo) / 2;
      if (blockedFpp((double) n / mid, k) <= target) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return new BloomSizing(n, p, classicalBits, k, hi);
  }

  private static void checkArguments(long n, double p) {
    Validate.isTrue(n >= 1, "expected insertions (n) must be at least 1, was %s", n);
    Validate.isTrue(p >= MIN_FPP && p < 1, "false-positive rate (p) must be in [%s, 1), was %s", MIN_FPP, p);
  }

  /** Classical {@code m = -n ln p / (ln 2)^2}, rounded up. */
  public static long classicalBits(long n, double p) {
    return (long) Math.ceil(-n * Math.log(p) / (LN2 * LN2));
  }

  /** Classical {@code k = -ln p / ln 2}, rounded to the nearest integer and at least 1. */
  public static int classicalHashCount(double p) {
    return (int) Math.max(1, Math.round(-Math.log(p) / LN2));
  }

  /** Classical false-positive rate {@code (1 - e^(-kn/m))^k} of an m-bit filter holding n elements with k probes. */
  public static double classicalFpp(double m, double n, int k) {
    return Math.pow(-Math.expm1(-k * n / m), k);
  }

  /**
   * False-positive rate of a blocked filter whose blocks hold {@code elementsPerBlock} elements on average: the
   * per-block rate {@code (1 - (1 - 1/512)^(kj))^k} averaged over a Poisson(elementsPerBlock) number j of elements
   * in the probed block.
   */
  public static double blockedFpp(double elementsPerBlock, int k) {
    double lambda = elementsPerBlock;
    if (lambda <= 0) {
      return 0;
    }
    double logStay = Math.log1p(-1.0 / BLOCK_BITS); // ln of the chance a bit survives one probe
    long last = (long) Math.ceil(lambda + 12 * Math.sqrt(lambda) + 30);
    double logPmf = -lambda; // ln Poisson(0)
    double logLambda = Math.log(lambda);
    double sum = 0;
    for (long j = 0; j <= last; j++) {
      if (j > 0) {
        logPmf += logLambda - Math.log(j);
      }
      double fill = -Math.expm1((double) k * j * logStay);
      sum += Math.exp(logPmf + k * Math.log(fill));
    }
    return Math.min(1, sum);
  }

  /** Bits allocated: whole 512-bit blocks. */
  public long bits() {
    return blocks * BLOCK_BITS;
  }

  /** Bytes allocated for the bits. */
  public long bytes() {
    return bits() / 8;
  }

  /** Classical bytes, {@code ceil(classicalBits / 8)}. */
  public long classicalBytes() {
    return (classicalBits + 7) / 8;
  }

  /** Allocated bits per expected element. */
  public double bitsPerElement() {
    return (double) bits() / expectedInsertions;
  }

  /** Allocated bits over classical bits; 1.06 means 6% more than a classical filter. */
  public double overheadRatio() {
    return (double) bits() / classicalBits;
  }

  /** Expected false-positive rate of the allocated filter after {@code insertions} distinct elements. */
  public double expectedFppAt(long insertions) {
    return blockedFpp((double) insertions / blocks, hashCount);
  }

  /**
   * Expected number of new elements wrongly taken for ones seen while the filter filled up to {@code elements}
   * (as {@link #estimateElements} reads them off its set bits): the false-positive rate summed over the fill, the
   * integral of {@link #expectedFppAt} from 0 to {@code elements} (Simpson's rule; the rate grows smoothly, as a
   * power k of the fill, so 64 intervals are plenty). Measured against real losses it stays within about 10% from
   * capacity to five times over it (FalsePositiveEstimateTest).
   */
  public double expectedFalsePositives(double elements) {
    if (!(elements > 0)) {
      return 0;
    }
    int intervals = 64;
    double h = elements / intervals;
    double sum = 0;
    for (int i = 0; i <= intervals; i++) {
      double weight = i == 0 || i == intervals ? 1 : i % 2 == 1 ? 4 : 2;
      sum += weight * blockedFpp(i * h / blocks, hashCount);
    }
    return sum * h / 3;
  }

  /** Expected false-positive rate of the classical filter after {@code insertions} distinct elements. */
  public double classicalFppAt(long insertions) {
    return classicalFpp(classicalBits, insertions, hashCount);
  }

  /**
   * The estimated number of distinct elements in a filter of this size with {@code setBits} bits set,
   * {@code s = -(m/k) ln(1 - X/m)}; infinite when every bit is set.
   */
  public double estimateElements(long setBits) {
    double m = bits();
    return -m / hashCount * Math.log1p(-setBits / m);
  }

  /** The false-positive rate of a filter of this size with {@code setBits} bits set (1 when full). */
  public double fppAtSetBits(long setBits) {
    double elements = estimateElements(setBits);
    return Double.isInfinite(elements) ? 1.0 : blockedFpp(elements / blocks, hashCount);
  }
}

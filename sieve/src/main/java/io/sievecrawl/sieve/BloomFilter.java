package io.sievecrawl.sieve;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * A thread-safe Bloom filter of strings whose {@link #add} is an exact, atomic test-and-set.
 *
 * <p>{@link #add} returns {@code true} exactly when the call made the element present: of any number of threads
 * adding the same absent element at once, exactly one is told {@code true}. An element once added is reported by
 * {@link #mightContain} in every thread from the moment {@code add} returns (no false negatives). An element never
 * added is reported present with a probability that stays below the target rate until the filter holds its
 * expected number of elements; see {@link BloomSizing} for the sizing and {@link #expectedFpp()} for the current
 * rate.
 *
 * <p>Create one with {@link #create(long, double)}; save and restore it with {@link BloomFilterFile}.
 */
public final class BloomFilter {
  /*
   * Design notes.
   *
   * 1. Layout. The bits live in one long[] of 8-word (512-bit, one cache line) blocks. Every element sets all
   *    of its k bits inside one block, so an add or a lookup touches one cache line, not k. The block is
   *    chosen by the multiply-high of the first 64-bit hash half and the block count (Lemire's range
   *    reduction: no division, no power-of-two rounding). The bits inside the block come from double hashing:
   *    g_j = h2 + j * step (j = 1, 2, ...; step = rotl(h1, 32) | 1, odd, so never zero, and its high bits are
   *    independent of the block choice, which uses the high bits of h1). Each g_j goes through MurmurHash3's
   *    finalizer and is cut into seven 9-bit bit indexes, so k <= 7 costs one finalizer and k = 13 two.
   *    Taking the bit indexes straight from the progression (top 9 bits of h2 + i * step, even with a growing
   *    step) fails in a 512-bit block: the k indexes of an element form a near-arithmetic progression, those
   *    of different elements overlap far more than random sets do, and the measured false-positive rate came
   *    out 12% over the model at p = 0.1% and 35% over at 0.01%. A zero or degenerate h2 is harmless: the finalizer of h2 + step is well spread.
   *    A blocked filter loads its blocks unevenly, so BloomSizing allocates a few per cent more than the
   *    classical m.
   *
   * 2. Hashing. One MurmurHash3 x64_128 per element, over its UTF-8 bytes, computed before any lock is
   *    taken. The bytes come from one String.getBytes copy (see Murmur3 for why that beats reading characters).
   *    The seed is part of the filter and of its file form. A filter with FINGERPRINT hashing (one behind an exact
 *    store) derives both halves from the first one alone, the URL's 64-bit fingerprint: h2 = mix(h1 ^ GOLDEN). Then
 *    the store of fingerprints can rebuild the filter at any size, which is how it grows; the block and step, the
 *    high-quality part, are unchanged, and h2 only seeds the finalizer that draws the bits.
   *
   * 3. Striping. A block is guarded by the lock of stripe (block mod STRIPES). add() first reads the k bits
   *    without a lock and returns false if all are set (a duplicate, the common case in a crawl). Otherwise it
   *    takes exactly that one lock, reads the k bits again and sets the missing ones; because every writer of a
   *    block holds the same lock, the read-then-set is atomic and exactly one racing adder sees a missing bit.
   *    Locks are plain monitors: the critical section is a few nanoseconds, never blocks and never does I/O.
   *
   * 4. Unlocked reads. mightContain() takes no lock. Writers store words with release semantics and readers
   *    load with acquire semantics (both free on x86), so a reader that observes a bit also observes
   *    everything the adder did before, and a lookup that starts after add() returned finds every bit set:
   *    bits only ever go from 0 to 1.
   *
   * 5. Counting. Each add counts the bits it flipped from 0 to 1 into a LongAdder, so bitCount() is the exact
   *    number of set bits once adds have returned, without ever scanning the array. The size estimate
   *    s = -(m/k) ln(1 - X/m) (Swamidass and Baldi, 2007) and the current false-positive rate are derived from it.
   */

  static final int STRIPES = 1024; // power of two; 2 cores need few, but more keeps contention negligible
  private static final int WORDS_PER_BLOCK = BloomSizing.BLOCK_BITS / Long.SIZE;
  private static final int BIT_INDEX_BITS = 9; // log2(BLOCK_BITS)
  private static final int PROBES_PER_HASH = Long.SIZE / BIT_INDEX_BITS; // 7 bit indexes from each 64-bit value
  private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

  private static final long GOLDEN = 0x9e3779b97f4a7c15L;

  /** Seed used by {@link #create(long, double)}; fixed so that crawls are reproducible. */
  public static final long DEFAULT_SEED = 0x5eed_c4a3_1b10_0f11L;

  /** How an element's bits are derived from its hash. */
  public enum Hashing {
    /** From the element's 128-bit hash: a filter on its own. */
    URL,
    /**
     * From the element's 64-bit {@linkplain #fingerprint fingerprint} alone, so that a store of fingerprints can
     * rebuild the filter at any size.
     */
    FINGERPRINT
  }

  private final BloomSizing sizing;
  private final long seed;
  private final Hashing hashing;
  private final long[] words;
  private final Object[] stripes;
  private final LongAdder bitCount = new LongAdder();

  private BloomFilter(BloomSizing sizing, long seed, Hashing hashing, long[] words, long bitCount) {
    this.sizing = sizing;
    this.seed = seed;
    this.hashing = hashing;
    this.words = words;
    this.bitCount.add(bitCount);
    this.stripes = new Object[(int) Math.min(STRIPES, sizing.blocks())];
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new Object();
    }
  }

  /**
   * A filter for {@code expectedInsertions} distinct elements at false-positive rate {@code fpp}.
   *
   * @throws IllegalArgumentException if {@code expectedInsertions < 1}, {@code fpp} is outside
   *     [{@value BloomSizing#MIN_FPP}, 1), or the filter would not fit one array
   */
  public static BloomFilter create(long expectedInsertions, double fpp) {
    return create(BloomSizing.of(expectedInsertions, fpp), DEFAULT_SEED);
  }

  /** A filter of the given size whose hash uses {@code seed}. */
  public static BloomFilter create(BloomSizing sizing, long seed) {
    return create(sizing, seed, Hashing.URL);
  }

  /** A filter of the given size whose hash uses {@code seed} and derives bits by {@code hashing}. */
  public static BloomFilter create(BloomSizing sizing, long seed, Hashing hashing) {
    return new BloomFilter(sizing, seed, hashing, new long[Math.toIntExact(sizing.blocks() * WORDS_PER_BLOCK)], 0);
  }

  /** A filter over existing words, as read back from a file; the caller has checked the bit count. */
  static BloomFilter restore(BloomSizing sizing, long seed, Hashing hashing, long[] words, long bitCount) {
    return new BloomFilter(sizing, seed, hashing, words, bitCount);
  }

  /**
   * Adds {@code element}; returns {@code true} exactly when this call made it present (it was absent, or at least
   * one of its bits was still clear). Atomic: concurrent adds of one absent element return {@code true} once.
   */
  public boolean add(CharSequence element) {
    return add(hash(element));
  }

  /** Whether {@code element} might have been added: {@code false} means it certainly was not. */
  public boolean mightContain(CharSequence element) {
    return mightContain(hash(element));
  }

  /**
   * The 64-bit fingerprint of {@code element} under this filter's seed: the first half of its 128-bit hash. With
   * {@link Hashing#FINGERPRINT} it is all the filter needs of the element.
   */
  public long fingerprint(CharSequence element) {
    return Murmur3.hash128(element, seed).h1();
  }

  /**
   * {@link #add(CharSequence)} of the element whose {@linkplain #fingerprint fingerprint} is {@code fingerprint}.
   *
   * @throws IllegalStateException if this filter hashes whole URLs ({@link Hashing#URL})
   */
  public boolean addFingerprint(long fingerprint) {
    return add(fromFingerprint(fingerprint));
  }

  /** {@link #mightContain(CharSequence)} of the element whose fingerprint is {@code fingerprint}. */
  public boolean mightContainFingerprint(long fingerprint) {
    return mightContain(fromFingerprint(fingerprint));
  }

  private Hash128 hash(CharSequence element) {
    Hash128 hash = Murmur3.hash128(element, seed);
    return hashing == Hashing.URL ? hash : fromFingerprint(hash.h1());
  }

  private Hash128 fromFingerprint(long fingerprint) {
    if (hashing != Hashing.FINGERPRINT) {
      throw new IllegalStateException("this filter hashes whole URLs; it cannot take a fingerprint");
    }
    return new Hash128(fingerprint, mix(fingerprint ^ GOLDEN));
  }

  boolean add(Hash128 hash) {
    if (mightContain(hash)) {
      // Every bit is already set, and bits are never cleared: the element is present, so no lock is needed. Most
      // pushes in a crawl are duplicates. A concurrent first add of the same element has either set every bit
      // (and is the one told true) or not, in which case this read sees a clear bit and takes the lock below.
      return false;
    }
    int block = blockOf(hash.h1());
    int base = block * WORDS_PER_BLOCK;
    long step = probeStep(hash.h1());
    int k = sizing.hashCount();
    int flipped = 0;
    synchronized (stripes[block & (stripes.length - 1)]) {
      long x = hash.h2();
      long probes = 0;
      for (int i = 0; i < k; i++, probes <<= BIT_INDEX_BITS) {
        if (i % PROBES_PER_HASH == 0) {
          x += step;
          probes = mix(x);
        }
        int bit = (int) (probes >>> (Long.SIZE - BIT_INDEX_BITS));
        int index = base + (bit >>> 6);
        long mask = 1L << bit;
        long word = words[index]; // plain read: every writer of this block holds this lock
        if ((word & mask) == 0) {
          WORDS.setRelease(words, index, word | mask);
          flipped++;
        }
      }
      if (flipped > 0) {
        bitCount.add(flipped); // under the lock, so a file snapshot's count matches its bits
      }
    }
    return flipped > 0;
  }

  boolean mightContain(Hash128 hash) {
    int base = blockOf(hash.h1()) * WORDS_PER_BLOCK;
    long step = probeStep(hash.h1());
    int k = sizing.hashCount();
    long x = hash.h2();
    long probes = 0;
    for (int i = 0; i < k; i++, probes <<= BIT_INDEX_BITS) {
      if (i % PROBES_PER_HASH == 0) {
        x += step;
        probes = mix(x);
      }
      int bit = (int) (probes >>> (Long.SIZE - BIT_INDEX_BITS));
      long word = (long) WORDS.getAcquire(words, base + (bit >>> 6));
      if ((word & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  /** The block index: {@code floor(h1 * blocks / 2^64)} with h1 read as unsigned. */
  int blockOf(long h1) {
    return (int) Math.unsignedMultiplyHigh(h1, sizing.blocks());
  }

  private static long probeStep(long h1) {
    return Long.rotateLeft(h1, 32) | 1;
  }

  /** MurmurHash3's 64-bit finalizer: every input bit affects every output bit. */
  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }

  /** The number of bits set, exact once concurrent adds have returned; maintained as bits flip, never scanned. */
  public long bitCount() {
    return bitCount.sum();
  }

  /** m, the number of bits allocated. */
  public long bitSize() {
    return sizing.bits();
  }

  /** k, the number of bits set per element. */
  public int hashCount() {
    return sizing.hashCount();
  }

  /** n, the number of distinct elements the filter was sized for. */
  public long expectedInsertions() {
    return sizing.expectedInsertions();
  }

  /** p, the false-positive rate the filter was sized for at n elements. */
  public double targetFpp() {
    return sizing.targetFpp();
  }

  /** The sizing this filter was built from. */
  public BloomSizing sizing() {
    return sizing;
  }

  /** The hash seed. */
  public long seed() {
    return seed;
  }

  /** How elements' bits are derived. */
  public Hashing hashing() {
    return hashing;
  }

  /**
   * Estimated number of distinct elements added, {@code s = -(m/k) ln(1 - X/m)} with X the set bits; within
   * about 1% of the true count while the filter is not far beyond its capacity. {@code Long.MAX_VALUE} once every
   * bit is set.
   */
  public long approximateElementCount() {
    return Math.round(estimateElements(bitCount()));
  }

  /** The size estimate for {@code setBits} set bits, as a double (infinite when every bit is set). */
  double estimateElements(long setBits) {
    return sizing.estimateElements(setBits);
  }

  /** Fraction of bits set, X / m. */
  public double fillRatio() {
    return (double) bitCount() / sizing.bits();
  }

  /**
   * The probability that a lookup of an element never added returns {@code true} now, from the fill: the blocked
   * layout's rate ({@link BloomSizing#blockedFpp}) at the estimated element count.
   */
  public double expectedFpp() {
    return sizing.fppAtSetBits(bitCount());
  }

  /**
   * Where {@code element}'s k bits lie: its block, and each bit's index inside the block (0 to 511). The same
   * positions {@link #add} sets, for a filter kept elsewhere in the same layout (in Redis, for agents sharing a
   * crawl).
   */
  public Probe probe(CharSequence element) {
    if (hashing != Hashing.URL) {
      throw new IllegalStateException("probes are for filters that hash whole URLs");
    }
    return probe(element, sizing, seed);
  }

  /** {@link #probe(CharSequence)} for a filter of {@code sizing} and {@code seed}, without one in memory. */
  public static Probe probe(CharSequence element, BloomSizing sizing, long seed) {
    Hash128 hash = Murmur3.hash128(element, seed);
    int[] bits = new int[sizing.hashCount()];
    long step = probeStep(hash.h1());
    long x = hash.h2();
    long probes = 0;
    for (int i = 0; i < bits.length; i++, probes <<= BIT_INDEX_BITS) {
      if (i % PROBES_PER_HASH == 0) {
        x += step;
        probes = mix(x);
      }
      bits[i] = (int) (probes >>> (Long.SIZE - BIT_INDEX_BITS));
    }
    return new Probe((int) Math.unsignedMultiplyHigh(hash.h1(), sizing.blocks()), bits, hash.h1());
  }

  /**
   * An element's place in the filter.
   *
   * @param block the 512-bit block that holds all its bits
   * @param bits each bit's index inside the block, 0 to 511 (repeats possible)
   * @param fingerprint the element's 64-bit {@linkplain #fingerprint fingerprint}, for an exact store kept with the
   *     filter
   */
  public record Probe(int block, int[] bits, long fingerprint) {}

  /**
   * The words, for writing to a file. Read without locks while adds may go on: a reader sees every bit set before
   * it started and perhaps some set while it reads (64-bit reads of a long[] are atomic on every 64-bit JVM).
   */
  long[] words() {
    return words;
  }

  @Override
  public String toString() {
    return String.format("BloomFilter[n=%d, p=%s, m=%d bits, k=%d, set=%d, estimated=%d]",
        expectedInsertions(), targetFpp(), bitSize(), hashCount(), bitCount(), approximateElementCount());
  }
}

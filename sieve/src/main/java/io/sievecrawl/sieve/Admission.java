package io.sievecrawl.sieve;

import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * The decision whether a URL is new: a Bloom filter alone, or the filter confirmed by an exact {@link SeenStore}.
 *
 * <p>Alone, the filter's "maybe seen" is final: a new URL it takes for seen (a false positive) is lost. Confirmed,
 * "maybe seen" is settled by the store, and a URL the filter wrongly took for seen is admitted and counted as
 * {@linkplain #rescued() rescued}. The filter then hashes by fingerprint ({@link BloomFilter.Hashing#FINGERPRINT}),
 * so the store can rebuild it.
 */
public final class Admission {
  /*
   * Why exactly once with a store. Every admitted fingerprint goes through store.addRecent, which is atomic, and
   * a fingerprint is settled only after it was recent (the owner freezes recent ones into settled ones while no
   * admission runs). A "new" answer from the filter proves the fingerprint is not settled (settled ones are all in
   * the filter), so only addRecent is asked; a "maybe seen" one asks containsSettled, then addRecent. Two racing
   * offers of one URL, whatever the filter told each, both end in addRecent, and one wins. Without addRecent on the
   * "new" path, A flips the bits, B finds them set and nothing in the store yet, and both would admit.
   *
   * Why a rescue is counted and sometimes taken back. A URL the filter calls "maybe seen" and the store admits is a
   * false positive of the filter, unless the bits were set by a racing offer of the same URL: A flips the last bit,
   * B finds them all set and wins addRecent, A loses it. That race is told by A, the one offer whose add flipped a
   * bit (the add is atomic: exactly one such offer per fingerprint) and that still lost addRecent: the winner saw
   * "maybe seen" only because of A, so A takes its rescue back. The sum may be one low for that instant; readers
   * get at least zero.
   */
  private final BloomFilter filter;
  private final SeenStore store; // null: the filter alone
  private final LongAdder rescued;

  private Admission(BloomFilter filter, SeenStore store, LongAdder rescued) {
    this.filter = Objects.requireNonNull(filter, "filter");
    this.store = store;
    this.rescued = rescued;
    if (store != null && filter.hashing() != BloomFilter.Hashing.FINGERPRINT) {
      throw new IllegalArgumentException("a confirmed filter must hash by fingerprint");
    }
  }

  /** The filter alone decides. */
  public static Admission byFilter(BloomFilter filter) {
    return new Admission(filter, null, new LongAdder());
  }

  /** The filter decides "new"; {@code store} settles "maybe seen". */
  public static Admission confirmed(BloomFilter filter, SeenStore store) {
    return new Admission(filter, Objects.requireNonNull(store, "store"), new LongAdder());
  }

  /**
   * The same store and rescue count over {@code grown}, a filter rebuilt from the store; the caller swaps it in while
   * no admission runs.
   */
  public Admission withFilter(BloomFilter grown) {
    if (store == null) {
      throw new IllegalStateException("only a confirmed filter can be rebuilt");
    }
    return new Admission(grown, store, rescued);
  }

  /**
   * A filter of {@code expectedUrls} and {@code fpp} confirmed by an exact store on the heap (about 24 bytes per
   * URL): no new URL is lost to a false positive.
   */
  public static Admission confirmedOnHeap(long expectedUrls, double fpp) {
    return Admission.confirmed(BloomFilter.create(BloomSizing.of(expectedUrls, fpp), BloomFilter.DEFAULT_SEED,
        BloomFilter.Hashing.FINGERPRINT), SeenStore.inMemory());
  }

  /** Whether {@code url} is new, making it seen if it is. */
  public boolean admit(CharSequence url) {
    if (store == null) {
      return filter.add(url);
    }
    long fingerprint = filter.fingerprint(url);
    boolean fresh = filter.addFingerprint(fingerprint);
    if (!fresh && store.containsSettled(fingerprint)) {
      return false;
    }
    if (!store.addRecent(fingerprint)) {
      if (fresh) {
        rescued.decrement(); // a racing offer of this URL won; its "maybe seen" came from this offer's bits
      }
      return false;
    }
    if (!fresh) {
      rescued.increment();
    }
    return true;
  }

  /** Replays an admission recovered from a log: the URL was admitted before, so it is seen again, not counted. */
  public void readmit(CharSequence url) {
    if (store == null) {
      filter.add(url);
      return;
    }
    long fingerprint = filter.fingerprint(url);
    filter.addFingerprint(fingerprint);
    store.addRecent(fingerprint);
  }

  /** Whether a store confirms the filter. */
  public boolean isConfirmed() {
    return store != null;
  }

  /** URLs the filter took for seen and the store found new, since this object was made. */
  public long rescued() {
    return Math.max(0, rescued.sum());
  }

  public BloomFilter filter() {
    return filter;
  }
}

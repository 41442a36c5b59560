package io.sievecrawl.sieve;

import java.util.function.LongConsumer;

/**
 * A thread-safe set of 64-bit fingerprints: 64 {@link FingerprintSet}s, each under its own lock, chosen by a
 * fingerprint's top bits, so that threads admitting different URLs seldom wait for each other.
 */
public final class StripedFingerprintSet {
  private static final int STRIPE_BITS = 6;

  private final FingerprintSet[] stripes = new FingerprintSet[1 << STRIPE_BITS];

  public StripedFingerprintSet() {
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new FingerprintSet();
    }
  }

  /** Adds {@code fingerprint}; returns whether it was absent. Of racing adds of one fingerprint, one is told true. */
  public boolean add(long fingerprint) {
    FingerprintSet stripe = stripeOf(fingerprint);
    synchronized (stripe) {
      return stripe.add(fingerprint);
    }
  }

  public boolean contains(long fingerprint) {
    FingerprintSet stripe = stripeOf(fingerprint);
    synchronized (stripe) {
      return stripe.contains(fingerprint);
    }
  }

  /**
   * The fingerprints in ascending unsigned order. The stripes are chosen by the top bits, so the stripes' sorted
   * contents, one after the other, are in order.
   */
  public long[] toSortedArray() {
    long[][] parts = new long[stripes.length][];
    int total = 0;
    for (int i = 0; i < stripes.length; i++) {
      synchronized (stripes[i]) {
        parts[i] = stripes[i].toSortedArray();
      }
      total += parts[i].length;
    }
    long[] all = new long[total];
    int at = 0;
    for (long[] part : parts) {
      System.arraycopy(part, 0, all, at, part.length);
      at += part.length;
    }
    return all;
  }

  /** Gives every fingerprint to {@code action}, in no particular order, without sorting or copying them. */
  public void forEach(LongConsumer action) {
    for (FingerprintSet stripe : stripes) {
      synchronized (stripe) {
        stripe.forEach(action);
      }
    }
  }

  private FingerprintSet stripeOf(long fingerprint) {
    return stripes[(int) (fingerprint >>> (Long.SIZE - STRIPE_BITS))];
  }
}

package io.sievecrawl.sieve;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * A set of 64-bit fingerprints in one open-addressing array: about 16 to 24 bytes per entry, no object per entry.
 * Not thread-safe; its owners lock around it.
 */
public final class FingerprintSet {
  private static final int MIN_CAPACITY = 16;

  private long[] slots; // 0 marks an empty slot; the fingerprint 0 is kept in hasZero
  private int size; // entries in slots, not counting zero
  private boolean hasZero;

  public FingerprintSet() {
    slots = new long[MIN_CAPACITY];
  }

  /** Adds {@code fingerprint}; returns whether it was absent. */
  public boolean add(long fingerprint) {
    if (fingerprint == 0) {
      boolean added = !hasZero;
      hasZero = true;
      return added;
    }
    int mask = slots.length - 1;
    for (int i = slot(fingerprint, mask); ; i = (i + 1) & mask) {
      long at = slots[i];
      if (at == fingerprint) {
        return false;
      }
      if (at == 0) {
        slots[i] = fingerprint;
        if (++size * 2 > slots.length) { // at most half full: short probe runs
          grow();
        }
        return true;
      }
    }
  }

  public boolean contains(long fingerprint) {
    if (fingerprint == 0) {
      return hasZero;
    }
    int mask = slots.length - 1;
    for (int i = slot(fingerprint, mask); ; i = (i + 1) & mask) {
      long at = slots[i];
      if (at == fingerprint) {
        return true;
      }
      if (at == 0) {
        return false;
      }
    }
  }

  public int size() {
    return size + (hasZero ? 1 : 0);
  }

  /** Gives every fingerprint to {@code action}, in no particular order. */
  public void forEach(LongConsumer action) {
    if (hasZero) {
      action.accept(0);
    }
    for (long f : slots) {
      if (f != 0) {
        action.accept(f);
      }
    }
  }

  /** The fingerprints in ascending unsigned order, as runs and merges keep them. */
  public long[] toSortedArray() {
    long[] sorted = new long[size()];
    int n = 0;
    if (hasZero) {
      sorted[n++] = 0;
    }
    for (long f : slots) {
      if (f != 0) {
        sorted[n++] = f ^ Long.MIN_VALUE; // flipping the sign bit turns unsigned order into signed order
      }
    }
    Arrays.sort(sorted, hasZero ? 1 : 0, n);
    for (int i = hasZero ? 1 : 0; i < n; i++) {
      sorted[i] ^= Long.MIN_VALUE;
    }
    return sorted;
  }

  private void grow() {
    long[] old = slots;
    slots = new long[old.length * 2];
    int mask = slots.length - 1;
    for (long f : old) {
      if (f != 0) {
        int i = slot(f, mask);
        while (slots[i] != 0) {
          i = (i + 1) & mask;
        }
        slots[i] = f;
      }
    }
  }

  /** Fingerprints are hashes already, but of URLs whose low bits may repeat; spread them once more. */
  private static int slot(long fingerprint, int mask) {
    return (int) ((fingerprint * 0x9e3779b97f4a7c15L) >>> 32) & mask;
  }
}

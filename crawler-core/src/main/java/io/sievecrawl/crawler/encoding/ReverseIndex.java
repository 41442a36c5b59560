package io.sievecrawl.crawler.encoding;

import java.util.Arrays;

/**
 * An index turned around for an encoder: the pointers of a code point, of which the standard's "index pointer" is
 * the first. Built once per encoding, on the first text encoded in it.
 */
final class ReverseIndex {
  private final long[] entries; // codePoint << 32 | pointer, sorted: a code point's pointers in their order

  /** The reverse of {@code index} without the pointers in {@code [excludedFrom, excludedTo]} (none if from > to). */
  ReverseIndex(int[] index, int excludedFrom, int excludedTo) {
    long[] all = new long[index.length];
    int n = 0;
    for (int pointer = 0; pointer < index.length; pointer++) {
      if (index[pointer] != Indexes.NONE && (pointer < excludedFrom || pointer > excludedTo)) {
        all[n++] = (long) index[pointer] << 32 | pointer;
      }
    }
    entries = Arrays.copyOf(all, n);
    Arrays.sort(entries);
  }

  ReverseIndex(int[] index) {
    this(index, 1, 0);
  }

  /** The first pointer of {@code codePoint}, or -1. */
  int firstPointer(int codePoint) {
    int i = Arrays.binarySearch(entries, (long) codePoint << 32);
    i = i < 0 ? -i - 1 : i;
    return i < entries.length && (int) (entries[i] >>> 32) == codePoint ? (int) entries[i] : -1;
  }

  /** The last pointer of {@code codePoint}, or -1. */
  int lastPointer(int codePoint) {
    int i = Arrays.binarySearch(entries, (long) codePoint << 32 | 0xFFFF_FFFFL);
    i = (i < 0 ? -i - 1 : i + 1) - 1;
    return i >= 0 && (int) (entries[i] >>> 32) == codePoint ? (int) entries[i] : -1;
  }
}

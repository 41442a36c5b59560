package io.sievecrawl.sieve.disk;

/**
 * Which sequence numbers are acknowledged, kept as a low-watermark and a bitmap above it.
 *
 * <p>Every sequence number below the {@linkplain #watermark() watermark} is acknowledged; above it, a bit per
 * number says which are. Tasks complete out of order (a slow page holds the watermark while later ones finish), so
 * the bitmap spans from the oldest unacknowledged task to the newest acknowledged one: its memory is bounded by how
 * far completion runs ahead of the oldest task in flight, one bit per task, not by the size of the frontier.
 * Not thread-safe.
 */
final class AckWindow {
  private long watermark; // every seq < watermark is acknowledged
  private long[] bits = new long[16]; // ring: bit (seq - watermark) of the window, starting at word head
  private int head; // word index of the watermark's word in the ring
  private int headBit; // the watermark's bit inside that word... always watermark & 63
  private long acknowledgedAbove; // set bits in the window

  AckWindow(long watermark) {
    this.watermark = watermark;
    this.headBit = (int) (watermark & 63);
  }

  /** The lowest sequence number not acknowledged. */
  long watermark() {
    return watermark;
  }

  /** Acknowledged numbers at or above the watermark. */
  long acknowledgedAbove() {
    return acknowledgedAbove;
  }

  boolean isAcknowledged(long seq) {
    if (seq < watermark) {
      return true;
    }
    long index = (seq - watermark) + headBit;
    if (index >= (long) bits.length * 64) {
      return false;
    }
    return (bits[wordOf(index)] & (1L << (index & 63))) != 0;
  }

  /** Marks {@code seq}; returns whether it was not already acknowledged. */
  boolean acknowledge(long seq) {
    if (isAcknowledged(seq)) {
      return false;
    }
    long index = (seq - watermark) + headBit;
    while (index >= (long) bits.length * 64) {
      grow();
    }
    bits[wordOf(index)] |= 1L << (index & 63);
    acknowledgedAbove++;
    advance();
    return true;
  }

  private int wordOf(long index) {
    return (int) ((head + (index >>> 6)) % bits.length);
  }

  /** Moves the watermark past every acknowledged number at its front. */
  private void advance() {
    while (true) {
      long word = bits[head] >>> headBit;
      if ((word & 1) == 0) {
        return;
      }
      int run = Long.numberOfTrailingZeros(~word); // acknowledged numbers in a row from the watermark
      run = Math.min(run, 64 - headBit);
      watermark += run;
      acknowledgedAbove -= run;
      headBit += run;
      if (headBit == 64) {
        bits[head] = 0;
        head = (head + 1) % bits.length;
        headBit = 0;
      }
    }
  }

  private void grow() {
    long[] larger = new long[bits.length * 2];
    for (int i = 0; i < bits.length; i++) {
      larger[i] = bits[(head + i) % bits.length];
    }
    bits = larger;
    head = 0;
  }
}

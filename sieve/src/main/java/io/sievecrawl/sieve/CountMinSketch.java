package io.sievecrawl.sieve;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;

/**
 * Counts per key in fixed memory, never under-counting: {@link #estimate} is at least the true count of a key and
 * exceeds it by little while the total stays small against the width. A budget checked against it is never
 * exceeded; a key may get a little less than its budget when the sketch is crowded.
 *
 * <p>{@link #incrementIfBelow} is atomic, so concurrent callers never take a key past its limit.
 */
public final class CountMinSketch implements PerKeyBudget {
  /*
   * Design notes. depth rows of width counters; a key's counter in row r is picked by (h1 + r * h2) of its 128-bit
   * MurmurHash3, reduced by multiply-high. Conservative update: an increment raises only the counters equal to the
   * key's current minimum, which keeps over-estimates much lower than plain count-min (Estan and Varghese, 2002).
   * With width w, the over-estimate of a key is below e/w times the total of all counts with probability
   * 1 - e^-depth. Methods are synchronized: the sketch sits beside a network fetch, so a lock costs nothing there.
   */
  private static final long SEED = 0x0c0e_7a11_5eed_b0d9L;
  /** 2^17 counters in 4 rows (2 MB): over 10 million counts a key's estimate is at most ~200 high (98%). */
  public static final int DEFAULT_WIDTH = 1 << 17;
  public static final int DEFAULT_DEPTH = 4;
  private static final int MAGIC = 0x5356434d; // "SVCM": the counters as they are (files of earlier releases)
  private static final int MAGIC_DEFLATED = 0x5356435a; // "SVCZ": the counters deflated

  private final int width;
  private final int depth;
  private final int[] counts;
  private long updates; // increments counted by this instance: tells a checkpoint whether anything changed

  private CountMinSketch(int width, int depth, int[] counts) {
    this.width = width;
    this.depth = depth;
    this.counts = counts;
  }

  /** An empty sketch of {@code depth} rows of {@code width} counters ({@code 4 * width * depth} bytes). */
  public static CountMinSketch create(int width, int depth) {
    Validate.isTrue(width >= 16 && depth >= 1 && (long) width * depth <= 1 << 28,
        "width (%s) must be at least 16, depth (%s) at least 1, and their product at most 2^28", width, depth);
    return new CountMinSketch(width, depth, new int[width * depth]);
  }

  /** At least the number of increments of {@code key}. */
  public synchronized long estimate(CharSequence key) {
    Hash128 h = Murmur3.hash128(key, SEED);
    long min = Long.MAX_VALUE;
    for (int r = 0; r < depth; r++) {
      min = Math.min(min, counts[index(h, r)]);
    }
    return min;
  }

  /** Counts one more {@code key} unless its estimate has reached {@code limit}; returns whether it counted. */
  @Override
  public boolean tryCount(CharSequence key, long limit) {
    return incrementIfBelow(key, limit);
  }

  /** Counts one more {@code key} unless its estimate has reached {@code limit}; returns whether it counted. */
  public synchronized boolean incrementIfBelow(CharSequence key, long limit) {
    Hash128 h = Murmur3.hash128(key, SEED);
    int min = Integer.MAX_VALUE;
    for (int r = 0; r < depth; r++) {
      min = Math.min(min, counts[index(h, r)]);
    }
    if (min >= limit || min == Integer.MAX_VALUE) {
      return false;
    }
    for (int r = 0; r < depth; r++) {
      int i = index(h, r);
      if (counts[i] == min) {
        counts[i] = min + 1;
      }
    }
    updates++;
    return true;
  }

  /** Increments counted by this instance since it was made or read: unchanged, the sketch is as it was. */
  public synchronized long updates() {
    return updates;
  }

  /**
   * The counters {@code key} maps to in a sketch of {@code width} and {@code depth}: one per row, as indexes into
   * the rows laid end to end. For a sketch kept elsewhere (in Redis) in the same layout.
   */
  public static int[] positions(CharSequence key, int width, int depth) {
    Hash128 h = Murmur3.hash128(key, SEED);
    int[] positions = new int[depth];
    for (int r = 0; r < depth; r++) {
      positions[r] = r * width + (int) Math.unsignedMultiplyHigh(h.h1() + r * h.h2(), width);
    }
    return positions;
  }

  private int index(Hash128 h, int row) {
    return row * width + (int) Math.unsignedMultiplyHigh(h.h1() + row * h.h2(), width);
  }

  /**
   * The sketch as bytes, for a checkpoint: deflated, since most counters of a crawl over fewer origins than the
   * width are zero (a crawl of one site saves about 9 KB instead of 2 MB).
   */
  public byte[] toBytes() {
    ByteBuffer raw = ByteBuffer.allocate(4 * counts.length);
    synchronized (this) {
      raw.asIntBuffer().put(counts);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(12 + raw.capacity() / 64);
    out.writeBytes(ByteBuffer.allocate(12).putInt(MAGIC_DEFLATED).putInt(width).putInt(depth).array());
    Deflater deflater = new Deflater(Deflater.BEST_SPEED);
    try (DeflaterOutputStream deflated = new DeflaterOutputStream(out, deflater)) {
      deflated.write(raw.array());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    } finally {
      deflater.end();
    }
    return out.toByteArray();
  }

  /**
   * A sketch from {@link #toBytes()} (or the undeflated form of earlier releases).
   *
   * @throws IllegalArgumentException if the bytes are not a sketch
   */
  public static CountMinSketch fromBytes(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    int magic = bytes.length < 12 ? 0 : in.getInt();
    if (magic != MAGIC && magic != MAGIC_DEFLATED) {
      throw new IllegalArgumentException("not a count-min sketch");
    }
    int width = in.getInt();
    int depth = in.getInt();
    if (width < 16 || depth < 1 || (long) width * depth > 1 << 28) {
      throw new IllegalArgumentException("a count-min sketch of the wrong size");
    }
    byte[] raw = magic == MAGIC ? rawCounters(bytes, width, depth) : inflate(bytes, width, depth);
    int[] counts = new int[width * depth];
    ByteBuffer.wrap(raw).asIntBuffer().get(counts);
    return new CountMinSketch(width, depth, counts);
  }

  private static byte[] rawCounters(byte[] bytes, int width, int depth) {
    if (bytes.length != 12 + 4L * width * depth) {
      throw new IllegalArgumentException("a count-min sketch of the wrong size");
    }
    return java.util.Arrays.copyOfRange(bytes, 12, bytes.length);
  }

  private static byte[] inflate(byte[] bytes, int width, int depth) {
    byte[] raw = new byte[4 * width * depth];
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(bytes, 12, bytes.length - 12);
      int n = 0;
      while (n < raw.length) {
        int got = inflater.inflate(raw, n, raw.length - n);
        if (got == 0 && (inflater.finished() || inflater.needsInput() || inflater.needsDictionary())) {
          break;
        }
        n += got;
      }
      boolean longer = !inflater.finished() && inflater.inflate(new byte[1]) > 0;
      if (n != raw.length || longer || !inflater.finished() || inflater.getRemaining() != 0) {
        throw new IllegalArgumentException("a count-min sketch cut short or of the wrong size");
      }
      return raw;
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("a damaged count-min sketch (" + e.getMessage() + ")");
    } finally {
      inflater.end();
    }
  }
}

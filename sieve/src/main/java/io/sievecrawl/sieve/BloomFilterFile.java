package io.sievecrawl.sieve;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * The on-disk form of a {@link BloomFilter}: versioned, checksummed, and refused with a clear message when it is
 * truncated or corrupted.
 *
 * <pre>
 * offset  size  field
 *      0     4  magic "SVBF"
 *      4     4  format version, currently 4
 *      8     8  n, expected insertions
 *     16     8  p, target false-positive rate (IEEE 754 double)
 *     24     4  k, bits per element
 *     28     8  blocks of 512 bits
 *     36     8  hash seed
 *     44     4  hashing: 0 from the URL's 128-bit hash, 1 from its 64-bit fingerprint (BloomFilter.Hashing)
 *     48        the bits, blocks * 8 words, as runs that cover every word in order, each:
 *            2    z, a count of zero words (unsigned)
 *            2    l, a count of literal words (unsigned)
 *          8*l    the l words, each a big-endian long
 *    end     8  X, number of set bits among the bits written
 *    end     4  CRC-32C of every byte before it
 * </pre>
 *
 * <p>Runs make the file as large as the filter's content, not its capacity: a crawl's filter is sized for millions of
 * URLs and may hold a dozen. Each nonzero word takes at most 12 bytes (itself and a run header) and zero words a run
 * header per 65,535, so an empty filter of n = 10M, p = 0.001 takes 208 bytes instead of 19.7 MB. A filter near
 * capacity has about half its bits set and practically no zero word: one literal run per 8,192 words, 4 bytes per
 * 64 KB more than version 2.
 *
 * <p>Writing takes no lock: adds go on while the bits are streamed out, so a file written during a crawl holds every
 * element added before the write began and perhaps some added during it. The set-bit count sits after the bits
 * because it is counted from the bits actually written. Version 2 (still read) wrote every word, 64 * blocks bytes
 * from offset 44. (Version 1 put the count in the header and held every stripe lock for the whole write, stopping
 * all adds; it is no longer read.) Versions 2 and 3 have no hashing field: their filters hash whole URLs.
 */
public final class BloomFilterFile {
  /** "SVBF". */
  static final int MAGIC = 0x53564246;
  static final int VERSION = 4;
  /** The version before the hashing field: runs, every filter hashing whole URLs. */
  static final int RUNS_VERSION = 3;
  /** The oldest version this build reads: every word written, no runs. */
  static final int PLAIN_VERSION = 2;
  static final int HEADER_BYTES = 48;
  static final int RUN_HEADER_BYTES = 4;
  static final int TRAILER_BYTES = 12;
  /** Words copied and written at a time; a literal run never spans two chunks, so it stays below MAX_RUN. */
  static final int CHUNK_WORDS = 8192;
  static final int MAX_RUN = 0xFFFF;

  private BloomFilterFile() {}

  /**
   * Writes {@code filter} to {@code file} atomically: a crash leaves the old file or the new one, never half. With
   * {@code durable}, the file and its directory entry are forced to the device before this returns.
   */
  public static void write(BloomFilter filter, Path file, boolean durable) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        OutputStream out = java.nio.channels.Channels.newOutputStream(channel);
        write(filter, out);
        out.flush();
        if (durable) {
          channel.force(true);
        }
      }
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      if (durable) {
        Durable.syncDirectory(dir);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** {@link #write(BloomFilter, Path, boolean)} without forcing the file to the device. */
  public static void write(BloomFilter filter, Path file) throws IOException {
    write(filter, file, false);
  }

  /** Writes {@code filter} to {@code out} (not closed), without stopping concurrent adds. */
  public static void write(BloomFilter filter, OutputStream out) throws IOException {
    CRC32C crc = new CRC32C();
    DataOutputStream data = new DataOutputStream(new CheckedOutputStream(new BufferedOutputStream(out, 1 << 16), crc));
    BloomSizing sizing = filter.sizing();
    data.writeInt(MAGIC);
    data.writeInt(VERSION);
    data.writeLong(sizing.expectedInsertions());
    data.writeDouble(sizing.targetFpp());
    data.writeInt(sizing.hashCount());
    data.writeLong(sizing.blocks());
    data.writeLong(filter.seed());
    data.writeInt(filter.hashing().ordinal());
    long[] words = filter.words();
    long[] copy = new long[CHUNK_WORDS];
    ByteBuffer chunk = ByteBuffer.allocate(CHUNK_WORDS * Long.BYTES);
    long setBits = 0;
    long zeros = 0; // zero words met and not yet written: they go into the next run, even across chunks
    for (int from = 0; from < words.length; from += CHUNK_WORDS) {
      int count = Math.min(CHUNK_WORDS, words.length - from);
      System.arraycopy(words, from, copy, 0, count); // one read of each word: the count matches what is written
      chunk.clear();
      chunk.asLongBuffer().put(copy, 0, count);
      setBits += bitCount(copy, 0, count);
      if (allNonzero(copy, count)) { // near capacity, the usual case: the chunk is one literal run, found without a scan
        writeRun(data, zeros, count);
        data.write(chunk.array(), 0, count * Long.BYTES);
        zeros = 0;
      } else {
        zeros = writeRuns(data, copy, chunk.array(), count, zeros);
      }
    }
    if (zeros > 0) {
      writeRun(data, zeros, 0);
    }
    data.writeLong(setBits);
    data.flush();
    DataOutputStream trailer = new DataOutputStream(out);
    trailer.writeInt((int) crc.getValue());
    trailer.flush();
  }

  // The loops over a chunk's words are methods of their own, called once per chunk: the launcher runs the JVM without
  // on-stack replacement, where a loop over a whole filter in one call would run in the interpreter throughout.

  /** The bits set in {@code words[from, from + count)}. */
  private static long bitCount(long[] words, int from, int count) {
    long bits = 0;
    for (int i = from; i < from + count; i++) {
      bits += Long.bitCount(words[i]);
    }
    return bits;
  }

  /** Whether none of the first {@code count} {@code words} is zero. */
  private static boolean allNonzero(long[] words, int count) {
    long all = -1; // keeps its sign bit while every word is nonzero: w | -w is negative exactly when w != 0
    for (int i = 0; i < count; i++) { // a loop without branches, that the JIT can vectorize
      all &= words[i] | -words[i];
    }
    return all < 0;
  }

  /**
   * Writes the first {@code count} {@code words} (whose bytes are {@code bytes}) as runs, the first of which starts
   * with {@code zeros} zero words met before them; returns the zero words met after the last nonzero one.
   */
  private static long writeRuns(DataOutputStream data, long[] words, byte[] bytes, int count, long zeros)
      throws IOException {
    for (int i = 0; i < count; ) {
      if (words[i] == 0) {
        zeros++;
        i++;
        continue;
      }
      int start = i;
      while (i < count && words[i] != 0) {
        i++;
      }
      writeRun(data, zeros, i - start);
      data.write(bytes, start * Long.BYTES, (i - start) * Long.BYTES);
      zeros = 0;
    }
    return zeros;
  }

  /** Writes the header of a run of {@code zeros} zero words and {@code literals} words, splitting long zero runs. */
  private static void writeRun(DataOutputStream data, long zeros, int literals) throws IOException {
    for (; zeros > MAX_RUN; zeros -= MAX_RUN) {
      data.writeShort(MAX_RUN);
      data.writeShort(0);
    }
    data.writeShort((int) zeros);
    data.writeShort(literals);
  }

  /** Reads a filter written by {@link #write(BloomFilter, Path)}; the message of a refusal names the file. */
  public static BloomFilter read(Path file) throws IOException {
    try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      BloomFilter filter = read(in);
      if (in.read() != -1) {
        throw new FilterFileException("unexpected bytes after the checksum");
      }
      return filter;
    } catch (FilterFileException e) {
      throw new FilterFileException(file + ": " + e.getMessage());
    }
  }

  /**
   * Reads one filter from {@code in}, which is left positioned after it.
   *
   * @throws FilterFileException if the data is not a filter file, has an unknown version, is truncated, or fails
   *     its checksum or consistency checks
   */
  public static BloomFilter read(InputStream in) throws IOException {
    CRC32C crc = new CRC32C();
    DataInputStream data = new DataInputStream(new CheckedInputStream(in, crc));
    long offset = 0;
    try {
      int magic = data.readInt();
      if (magic != MAGIC) {
        throw new FilterFileException(String.format(
            "not a sievecrawl filter file (starts with 0x%08x, expected 0x%08x \"SVBF\")", magic, MAGIC));
      }
      int version = data.readInt();
      if (version < PLAIN_VERSION || version > VERSION) {
        throw new FilterFileException("unsupported filter file version " + version + " (this build reads versions "
            + PLAIN_VERSION + " to " + VERSION + ")");
      }
      long n = data.readLong();
      double p = data.readDouble();
      int k = data.readInt();
      long blocks = data.readLong();
      long seed = data.readLong();
      BloomFilter.Hashing hashing = BloomFilter.Hashing.URL;
      offset = HEADER_BYTES - 4;
      if (version == VERSION) {
        int code = data.readInt();
        if (code < 0 || code >= BloomFilter.Hashing.values().length) {
          throw new FilterFileException("corrupt header: hashing " + code);
        }
        hashing = BloomFilter.Hashing.values()[code];
        offset = HEADER_BYTES;
      }
      BloomSizing sizing;
      try {
        sizing = new BloomSizing(n, p, BloomSizing.classicalBits(n, p), k, blocks);
      } catch (IllegalArgumentException e) {
        throw new FilterFileException("corrupt header: " + e.getMessage());
      }
      if (k > 64) {
        throw new FilterFileException("corrupt header: k=" + k);
      }
      long[] words = new long[Math.toIntExact(blocks * 8)];
      byte[] chunk = new byte[CHUNK_WORDS * Long.BYTES];
      LongBuffer view = ByteBuffer.wrap(chunk).asLongBuffer();
      long setBits = 0;
      for (int at = 0; at < words.length; ) {
        int zeros = 0;
        int literals = words.length; // version 2: every word, as one run without a run header
        if (version != PLAIN_VERSION) {
          zeros = data.readUnsignedShort();
          literals = data.readUnsignedShort();
          offset += RUN_HEADER_BYTES;
          if (zeros + literals > words.length - at) {
            throw new FilterFileException(String.format("corrupt file: the run at byte %d (%d zero and %d literal"
                + " words from word %d) goes past the filter's %d words", offset - RUN_HEADER_BYTES, zeros,
                literals, at, words.length));
          }
        }
        at += zeros;
        for (int end = at + literals; at < end; ) {
          int count = Math.min(CHUNK_WORDS, end - at);
          data.readFully(chunk, 0, count * Long.BYTES);
          offset += (long) count * Long.BYTES;
          view.clear();
          view.get(words, at, count);
          setBits += bitCount(words, at, count);
          at += count;
        }
      }
      long bitCount = data.readLong();
      int computed = (int) crc.getValue();
      int stored = new DataInputStream(in).readInt();
      if (stored != computed) {
        throw new FilterFileException(String.format(
            "checksum mismatch: the file is corrupted (stored CRC-32C 0x%08x, computed 0x%08x)", stored, computed));
      }
      if (setBits != bitCount) {
        throw new FilterFileException(
            "corrupt file: the trailer says " + bitCount + " bits are set, the bits hold " + setBits);
      }
      return BloomFilter.restore(sizing, seed, hashing, words, bitCount);
    } catch (EOFException e) {
      throw new FilterFileException(
          "truncated: the file ends early (after about " + offset + " bytes of the header and bits)");
    }
  }
}

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
 *      4     4  format version, currently 2
 *      8     8  n, expected insertions
 *     16     8  p, target false-positive rate (IEEE 754 double)
 *     24     4  k, bits per element
 *     28     8  blocks of 512 bits
 *     36     8  hash seed
 *     44  64*b  the bits: blocks * 8 words, each a big-endian long
 *    end     8  X, number of set bits among the bits written
 *    end     4  CRC-32C of every byte before it
 * </pre>
 *
 * <p>Writing takes no lock: adds go on while the bits are streamed out, so a file written during a crawl holds every
 * element added before the write began and perhaps some added during it. The set-bit count sits after the bits
 * because it is counted from the bits actually written. (Version 1 put it in the header and held every stripe lock
 * for the whole write, stopping all adds; it is no longer read.)
 */
public final class BloomFilterFile {
  /** "SVBF". */
  static final int MAGIC = 0x53564246;
  static final int VERSION = 2;
  static final int HEADER_BYTES = 44;
  static final int TRAILER_BYTES = 12;
  private static final int CHUNK_WORDS = 8192;

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
    long[] words = filter.words();
    long[] copy = new long[CHUNK_WORDS];
    ByteBuffer chunk = ByteBuffer.allocate(CHUNK_WORDS * Long.BYTES);
    long setBits = 0;
    for (int from = 0; from < words.length; from += CHUNK_WORDS) {
      int count = Math.min(CHUNK_WORDS, words.length - from);
      System.arraycopy(words, from, copy, 0, count); // one read of each word: the count matches what is written
      for (int i = 0; i < count; i++) {
        setBits += Long.bitCount(copy[i]);
      }
      chunk.clear();
      chunk.asLongBuffer().put(copy, 0, count);
      data.write(chunk.array(), 0, count * Long.BYTES);
    }
    data.writeLong(setBits);
    data.flush();
    DataOutputStream trailer = new DataOutputStream(out);
    trailer.writeInt((int) crc.getValue());
    trailer.flush();
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
      if (version != VERSION) {
        throw new FilterFileException(
            "unsupported filter file version " + version + " (this build reads version " + VERSION + ")");
      }
      long n = data.readLong();
      double p = data.readDouble();
      int k = data.readInt();
      long blocks = data.readLong();
      long seed = data.readLong();
      offset = HEADER_BYTES;
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
      for (int from = 0; from < words.length; from += CHUNK_WORDS) {
        int count = Math.min(CHUNK_WORDS, words.length - from);
        data.readFully(chunk, 0, count * Long.BYTES);
        offset += (long) count * Long.BYTES;
        view.clear();
        view.get(words, from, count);
        for (int i = from; i < from + count; i++) {
          setBits += Long.bitCount(words[i]);
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
      return BloomFilter.restore(sizing, seed, words, bitCount);
    } catch (EOFException e) {
      throw new FilterFileException(
          "truncated: the file ends early (after about " + offset + " bytes of the header and bits)");
    }
  }
}

package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.Durable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;

/**
 * An immutable file of distinct 64-bit URL fingerprints in ascending unsigned order, memory-mapped for look-ups: 8
 * bytes per URL on disk and 1/64 byte per URL on the heap.
 *
 * <pre>
 * offset  size  field
 *      0     4  magic "SVFP"
 *      4     4  format version, 1
 *      8     8  count of fingerprints
 *     16     4  CRC-32C of the fingerprints' bytes
 *     20     4  zero
 *     24  8*count  the fingerprints, big-endian, ascending unsigned, no repeats
 * </pre>
 *
 * <p>A look-up binary-searches a fence table on the heap (the first fingerprint of every 4 KB page) and then the one
 * page, so it touches one page of the file. A run is written to a temporary file, forced and renamed: it is whole
 * or absent, and opening it checks its checksum and order.
 */
final class FingerprintRun {
  static final int MAGIC = 0x53564650; // "SVFP"
  static final int VERSION = 1;
  static final int HEADER_BYTES = 24;
  private static final int PAGE = 512; // fingerprints per 4 KB page: one fence each
  private static final int CHUNK_SHIFT = 27; // 2^27 fingerprints (1 GB) per mapping, under the 2 GB buffer limit
  private static final int WRITE_BATCH = 8192;
  private static final int LOOP_CHUNK = 256; // fingerprints per call of a loop's body, see forEach

  private final Path file;
  private final long count;
  private final int crc;
  private final MappedByteBuffer[] chunks;
  private final long[] fences;

  private FingerprintRun(Path file, long count, int crc, MappedByteBuffer[] chunks, long[] fences) {
    this.file = file;
    this.count = count;
    this.crc = crc;
    this.chunks = chunks;
    this.fences = fences;
  }

  /** A source of fingerprints in ascending unsigned order, read once. */
  interface Sorted {
    /** Whether another fingerprint follows. */
    boolean hasNext();

    long next();
  }

  /** Writes {@code sorted} (ascending unsigned, distinct) to {@code file} and opens it. */
  static FingerprintRun write(Path file, long[] sorted) throws IOException {
    return write(file, new Sorted() {
      int i;

      @Override
      public boolean hasNext() {
        return i < sorted.length;
      }

      @Override
      public long next() {
        return sorted[i++];
      }
    });
  }

  /** Writes the union of {@code runs} to {@code file} and opens it; the runs stay as they are. */
  static FingerprintRun merge(Path file, List<FingerprintRun> runs) throws IOException {
    return write(file, new Merged(runs));
  }

  /**
   * Puts up to {@link #LOOP_CHUNK} fingerprints of {@code source} into {@code buffer}, checking their order
   * ({@code previous[0]}: the last one put, unless {@code count}, the number put before, is 0); stops early where
   * the buffer fills or the source ends. Returns how many it put.
   */
  private static int take(Sorted source, ByteBuffer buffer, long[] previous, long count) {
    int taken = 0;
    while (taken < LOOP_CHUNK && buffer.hasRemaining() && source.hasNext()) {
      long f = source.next();
      if (count + taken > 0 && Long.compareUnsigned(f, previous[0]) <= 0) {
        throw new IllegalArgumentException("fingerprints out of order: " + Long.toUnsignedString(f) + " after "
            + Long.toUnsignedString(previous[0]));
      }
      previous[0] = f;
      taken++;
      buffer.putLong(f);
    }
    return taken;
  }

  private static FingerprintRun write(Path file, Sorted source) throws IOException {
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      CRC32C crc = new CRC32C();
      long count = 0;
      try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.allocate(WRITE_BATCH * Long.BYTES);
        out.position(HEADER_BYTES);
        long[] previous = {0};
        while (source.hasNext()) { // a call per chunk of fingerprints (see forEach)
          count += take(source, buffer, previous, count);
          if (!buffer.hasRemaining()) {
            drain(out, buffer, crc);
          }
        }
        drain(out, buffer, crc);
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).putInt(MAGIC).putInt(VERSION).putLong(count)
            .putInt((int) crc.getValue()).putInt(0).flip();
        while (header.hasRemaining()) {
          out.write(header, header.position());
        }
        out.force(true);
      }
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      Durable.syncDirectory(file.toAbsolutePath().getParent());
    } finally {
      Files.deleteIfExists(temp);
    }
    return open(file);
  }

  private static void drain(FileChannel out, ByteBuffer buffer, CRC32C crc) throws IOException {
    buffer.flip();
    crc.update(buffer.array(), 0, buffer.limit());
    while (buffer.hasRemaining()) {
      out.write(buffer);
    }
    buffer.clear();
  }

  /**
   * Opens the run in {@code file}, checking its header, checksum and order.
   *
   * @throws FrontierCorruptException if the file is damaged; the message names it
   */
  static FingerprintRun open(Path file) throws IOException {
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = in.size();
      if (size < HEADER_BYTES) {
        throw new FrontierCorruptException(file + ": shorter than a fingerprint run's header (" + size + " bytes)");
      }
      ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
      while (header.hasRemaining() && in.read(header, header.position()) > 0) {
        // read fully
      }
      header.flip();
      if (header.getInt() != MAGIC) {
        throw new FrontierCorruptException(file + ": not a fingerprint run");
      }
      int version = header.getInt();
      if (version != VERSION) {
        throw new FrontierCorruptException(file + ": fingerprint run version " + version + ", but this build reads"
            + " version " + VERSION);
      }
      long count = header.getLong();
      int storedCrc = header.getInt();
      if (count < 0 || size != HEADER_BYTES + count * Long.BYTES) {
        throw new FrontierCorruptException(file + ": " + size + " bytes, but its header says " + count
            + " fingerprints");
      }
      int chunkCount = (int) ((count + (1L << CHUNK_SHIFT) - 1) >>> CHUNK_SHIFT);
      MappedByteBuffer[] chunks = new MappedByteBuffer[chunkCount];
      for (int c = 0; c < chunkCount; c++) {
        long first = (long) c << CHUNK_SHIFT;
        long n = Math.min(1L << CHUNK_SHIFT, count - first);
        chunks[c] = in.map(FileChannel.MapMode.READ_ONLY, HEADER_BYTES + first * Long.BYTES, n * Long.BYTES);
      }
      FingerprintRun run = new FingerprintRun(file, count, storedCrc, chunks,
          new long[(int) ((count + PAGE - 1) / PAGE)]);
      run.check();
      return run;
    }
  }

  /** Verifies checksum and order and fills the fences, in one pass over the file. */
  private void check() throws FrontierCorruptException {
    CRC32C computed = new CRC32C();
    long previous = 0;
    for (int c = 0; c < chunks.length; c++) {
      ByteBuffer view = chunks[c].duplicate();
      computed.update(view.duplicate());
      for (int i = 0; view.remaining() >= Long.BYTES; i++) {
        long f = view.getLong();
        long index = ((long) c << CHUNK_SHIFT) + i;
        if (index > 0 && Long.compareUnsigned(f, previous) <= 0) {
          throw new FrontierCorruptException(file + ": fingerprint " + index + " is out of order");
        }
        if (index % PAGE == 0) {
          fences[(int) (index / PAGE)] = f;
        }
        previous = f;
      }
    }
    if ((int) computed.getValue() != crc) {
      throw new FrontierCorruptException(String.format("%s: checksum mismatch (stored CRC-32C 0x%08x, computed"
          + " 0x%08x); the file is damaged", file, crc, (int) computed.getValue()));
    }
  }

  /** Whether the run holds {@code fingerprint}. Thread-safe: reads only. */
  boolean contains(long fingerprint) {
    int lo = 0;
    int hi = fences.length - 1;
    if (hi < 0 || Long.compareUnsigned(fingerprint, fences[0]) < 0) {
      return false;
    }
    while (lo < hi) { // the last fence <= fingerprint
      int mid = (lo + hi + 1) >>> 1;
      if (Long.compareUnsigned(fences[mid], fingerprint) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    long from = (long) lo * PAGE;
    long to = Math.min(count, from + PAGE) - 1;
    while (from <= to) {
      long mid = (from + to) >>> 1;
      int order = Long.compareUnsigned(get(mid), fingerprint);
      if (order == 0) {
        return true;
      }
      if (order < 0) {
        from = mid + 1;
      } else {
        to = mid - 1;
      }
    }
    return false;
  }

  private long get(long index) {
    return chunks[(int) (index >>> CHUNK_SHIFT)].getLong((int) (index & ((1L << CHUNK_SHIFT) - 1)) * Long.BYTES);
  }

  /** Gives every fingerprint to {@code action}, in order. */
  void forEach(LongConsumer action) {
    for (long from = 0; from < count; from += LOOP_CHUNK) {
      forEach(from, Math.min(count, from + LOOP_CHUNK), action);
    }
  }

  /**
   * Gives the fingerprints {@code [from, to)} to {@code action}: a call per chunk, not one loop over a run of
   * millions, which without on-stack replacement (as the launcher runs the JVM) would stay in the interpreter.
   */
  private void forEach(long from, long to, LongConsumer action) {
    for (long i = from; i < to; i++) {
      action.accept(get(i));
    }
  }

  long count() {
    return count;
  }

  /** The CRC-32C of its fingerprints' bytes, as its header holds it (checked when it was opened). */
  int crc() {
    return crc;
  }

  /** What a checkpoint records of it, to know it again. */
  CheckpointFile.RunId id() {
    return new CheckpointFile.RunId(name(), count, crc);
  }

  Path file() {
    return file;
  }

  String name() {
    return file.getFileName().toString();
  }

  /** The union of sorted runs, each fingerprint once. */
  private static final class Merged implements Sorted {
    private final List<FingerprintRun> runs;
    private final long[] at;
    private boolean ready;
    private long next;

    Merged(List<FingerprintRun> runs) {
      this.runs = runs;
      this.at = new long[runs.size()];
    }

    @Override
    public boolean hasNext() {
      if (ready) {
        return true;
      }
      int least = -1;
      long min = 0;
      for (int r = 0; r < at.length; r++) {
        if (at[r] < runs.get(r).count) {
          long f = runs.get(r).get(at[r]);
          if (least < 0 || Long.compareUnsigned(f, min) < 0) {
            least = r;
            min = f;
          }
        }
      }
      if (least < 0) {
        return false;
      }
      for (int r = 0; r < at.length; r++) { // skip it in every run that holds it
        if (at[r] < runs.get(r).count && runs.get(r).get(at[r]) == min) {
          at[r]++;
        }
      }
      next = min;
      ready = true;
      return true;
    }

    @Override
    public long next() {
      ready = false;
      return next;
    }
  }
}

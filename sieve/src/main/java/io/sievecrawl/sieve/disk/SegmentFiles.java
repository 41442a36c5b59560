package io.sievecrawl.sieve.disk;

import java.io.Closeable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads records at any position of the log, and writes next-fields into them: a queue's next task lies wherever it
 * was appended. Keeps the most recently used segments open (at most {@value #MAX_OPEN}). Not thread-safe: the
 * frontier calls it under its lock.
 */
final class SegmentFiles implements Closeable {
  private static final int MAX_OPEN = 32;
  private static final int FIRST_READ = 512; // most records fit: one read per record

  private final Path dir;
  private final LinkedHashMap<Long, RandomAccessFile> open = new LinkedHashMap<>(16, 0.75f, true);
  private final byte[] eight = new byte[8];
  private byte[] buffer = new byte[FIRST_READ];

  /** The TASK record read last by {@link #readTask}; its fields are valid until the next read. */
  static final class TaskRecord {
    long seq;
    int queue;
    long next;
    byte[] bytes;
    int taskOffset;
    int taskLength;
  }

  private final TaskRecord record = new TaskRecord();

  SegmentFiles(Path dir) {
    this.dir = dir;
  }

  /**
   * The TASK record at {@code position}, checked against its checksum.
   *
   * @throws FrontierCorruptException if no whole TASK record with a valid checksum is there
   */
  TaskRecord readTask(long position) throws IOException {
    RandomAccessFile file = file(LogFormat.segmentOf(position));
    long offset = LogFormat.offsetOf(position);
    if (buffer.length > 64 * FIRST_READ) {
      buffer = new byte[FIRST_READ]; // a huge record was read earlier: give its buffer back
    }
    file.seek(offset);
    int have = readUpTo(file, 0, FIRST_READ);
    if (have < LogFormat.RECORD_HEADER_BYTES + LogFormat.FIXED_BODY_BYTES + LogFormat.NEXT_BYTES) {
      throw corrupt(position, "no record there (the segment ends first)");
    }
    ByteBuffer view = ByteBuffer.wrap(buffer);
    int length = view.getInt(0);
    if (length < LogFormat.FIXED_BODY_BYTES || length > LogFormat.MAX_BODY_BYTES) {
      throw corrupt(position, "no record there (a record claims " + length + " bytes)");
    }
    int total = LogFormat.RECORD_HEADER_BYTES + length + LogFormat.NEXT_BYTES;
    if (total > have) {
      if (total > buffer.length) {
        buffer = java.util.Arrays.copyOf(buffer, total);
        view = ByteBuffer.wrap(buffer);
      }
      if (have < FIRST_READ || readUpTo(file, have, total - have) < total - have) {
        throw corrupt(position, "the record there is cut off");
      }
    }
    int body = LogFormat.RECORD_HEADER_BYTES;
    if (LogFormat.crcOf(buffer, body, length) != view.getInt(4) || buffer[body] != LogFormat.TASK) {
      throw corrupt(position, "not a task record with a valid checksum");
    }
    record.seq = view.getLong(body + 1);
    record.queue = view.getInt(body + 1 + Long.BYTES);
    record.bytes = buffer;
    record.taskOffset = body + LogFormat.FIXED_BODY_BYTES;
    record.taskLength = length - LogFormat.FIXED_BODY_BYTES;
    record.next = view.getLong(body + length);
    return record;
  }

  /** Reads up to {@code length} bytes into the buffer at {@code from}; fewer only at the end of the file. */
  private int readUpTo(RandomAccessFile file, int from, int length) throws IOException {
    int done = 0;
    while (done < length) {
      int n = file.read(buffer, from + done, length - done);
      if (n < 0) {
        break;
      }
      done += n;
    }
    return done;
  }

  /** Writes {@code value} at {@code position} (a next-field). */
  void writeLong(long position, long value) throws IOException {
    RandomAccessFile file = file(LogFormat.segmentOf(position));
    ByteBuffer.wrap(eight).putLong(0, value);
    file.seek(LogFormat.offsetOf(position));
    file.write(eight);
  }

  /** Closes the segment's file if it is open (before the segment is deleted). */
  void forget(long segment) throws IOException {
    RandomAccessFile file = open.remove(segment);
    if (file != null) {
      file.close();
    }
  }

  private RandomAccessFile file(long segment) throws IOException {
    RandomAccessFile file = open.get(segment);
    if (file == null) {
      file = new RandomAccessFile(dir.resolve(LogFormat.segmentName(segment)).toFile(), "rw");
      open.put(segment, file);
      if (open.size() > MAX_OPEN) {
        Iterator<Map.Entry<Long, RandomAccessFile>> eldest = open.entrySet().iterator();
        eldest.next().getValue().close();
        eldest.remove();
      }
    }
    return file;
  }

  private FrontierCorruptException corrupt(long position, String why) {
    return new FrontierCorruptException(dir.resolve(LogFormat.segmentName(LogFormat.segmentOf(position)))
        + " at byte " + LogFormat.offsetOf(position) + ": " + why + "; a queue's chain points there");
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (RandomAccessFile file : open.values()) {
      try {
        file.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    open.clear();
    if (first != null) {
      throw first;
    }
  }
}

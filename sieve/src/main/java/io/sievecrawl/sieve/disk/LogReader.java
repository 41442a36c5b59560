package io.sievecrawl.sieve.disk;

import java.io.Closeable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the log's records in order, segment after segment, never past a limit (the writer's flushed end). Not
 * thread-safe: the frontier calls it under its lock.
 *
 * <p>{@link #next} either moves to the next whole, checksummed record, exposing its fields until the next call, or
 * says why it cannot: the end of what may be read, or a damaged record (which recovery repairs when it is the torn
 * tail of the last segment, and refuses otherwise).
 */
final class LogReader implements Closeable {
  /** What {@link #next} found. */
  enum Step { RECORD, END, DAMAGED }

  private static final int BUFFER_BYTES = 256 * 1024;

  private final Path dir;
  private RandomAccessFile file;
  private long segment;
  private long segmentFirstSeq;
  private byte[] buffer = new byte[BUFFER_BYTES];
  private long bufferStart; // file offset of buffer[0]
  private int bufferLength;
  private long offset; // file offset of the next record
  private long completeLength = -1; // length of this segment once a later one exists, read once

  // The current record, after next() returned RECORD.
  byte type;
  long seq;
  int queue;
  /** TASK: the next-field's value; ACK: the queue's resume position. */
  long link;
  int taskOffset;
  int taskLength;
  LogPosition recordStart;
  /** Why the last {@link Step#DAMAGED} happened. */
  String damage;
  /**
   * Whether the damage is what an interrupted append leaves: a record cut off by the end of the data, a last record
   * that fails its checksum, or nothing but zeros from the damaged record on. Anything else is corruption.
   */
  boolean damageAtTail;

  private LogReader(Path dir) {
    this.dir = dir;
  }

  /**
   * A reader positioned at the first record of segment {@code segment}.
   *
   * @throws FrontierCorruptException if the segment's header is missing or wrong
   */
  static LogReader atSegment(Path dir, long segment) throws IOException {
    LogReader reader = new LogReader(dir);
    reader.open(segment);
    return reader;
  }

  private void open(long number) throws IOException {
    Path path = dir.resolve(LogFormat.segmentName(number));
    RandomAccessFile opened = new RandomAccessFile(path.toFile(), "r");
    try {
      if (opened.length() < LogFormat.HEADER_BYTES) {
        throw new FrontierCorruptException(path + ": too short for a segment header (" + opened.length() + " bytes)");
      }
      byte[] header = new byte[LogFormat.HEADER_BYTES];
      opened.readFully(header);
      ByteBuffer h = ByteBuffer.wrap(header);
      int magic = h.getInt();
      int version = h.getInt();
      long written = h.getLong();
      long firstSeq = h.getLong();
      if (magic != LogFormat.MAGIC) {
        throw new FrontierCorruptException(path + ": not a sievecrawl frontier segment (bad magic number)");
      }
      if (version != LogFormat.VERSION) {
        throw new FrontierCorruptException(path + ": segment format version " + version
            + ", but this build reads version " + LogFormat.VERSION);
      }
      if (written != number) {
        throw new FrontierCorruptException(path + ": its header says segment " + written);
      }
      if (file != null) {
        file.close();
      }
      file = opened;
      segment = number;
      segmentFirstSeq = firstSeq;
      offset = LogFormat.HEADER_BYTES;
      completeLength = -1;
      bufferStart = offset;
      bufferLength = 0;
    } catch (IOException | RuntimeException e) {
      opened.close();
      throw e;
    }
  }

  long segment() {
    return segment;
  }

  long segmentFirstSeq() {
    return segmentFirstSeq;
  }

  /** The position of the next record (or of the end). */
  LogPosition position() {
    return new LogPosition(segment, offset);
  }

  /** The bytes of the current record's task; valid until the next call of {@link #next}. */
  byte[] taskBytes() {
    return buffer;
  }

  /**
   * Moves to the next record that ends at or before {@code limit}. When this segment holds no more and
   * {@code limit} lies in a later segment, moves on to the next segment.
   */
  Step next(LogPosition limit) throws IOException {
    while (true) {
      if (segment > limit.segment()) {
        return Step.END;
      }
      long end;
      if (segment < limit.segment()) {
        if (completeLength < 0) {
          completeLength = file.length(); // a later segment exists: this one is no longer written
        }
        end = completeLength;
        if (offset >= end) {
          open(segment + 1);
          continue;
        }
      } else {
        end = limit.offset();
        if (offset >= end) {
          return Step.END;
        }
      }
      if (end - offset < LogFormat.RECORD_HEADER_BYTES) {
        return damaged("a record header is cut off", true);
      }
      fill(LogFormat.RECORD_HEADER_BYTES, end);
      int at = (int) (offset - bufferStart);
      ByteBuffer view = ByteBuffer.wrap(buffer);
      int length = view.getInt(at);
      int crc = view.getInt(at + 4);
      if (length < LogFormat.FIXED_BODY_BYTES || length > LogFormat.MAX_BODY_BYTES) {
        return damaged("a record claims " + length + " bytes", zerosFrom(offset, end));
      }
      if (end - offset < LogFormat.RECORD_HEADER_BYTES + (long) length) {
        return damaged("a record is cut off", true);
      }
      fill(LogFormat.RECORD_HEADER_BYTES + length, end);
      at = (int) (offset - bufferStart);
      int body = at + LogFormat.RECORD_HEADER_BYTES;
      if (LogFormat.crcOf(buffer, body, length) != crc) {
        long recordEnd = offset + LogFormat.RECORD_HEADER_BYTES + length;
        return damaged("a record fails its checksum", recordEnd == end || zerosFrom(offset, end));
      }
      view = ByteBuffer.wrap(buffer);
      type = buffer[body];
      seq = view.getLong(body + 1);
      queue = view.getInt(body + 1 + Long.BYTES);
      int size = LogFormat.RECORD_HEADER_BYTES + length;
      switch (type) {
        case LogFormat.TASK -> {
          if (end - offset < size + LogFormat.NEXT_BYTES) {
            return damaged("a task record's next-field is cut off", true);
          }
          fill(size + LogFormat.NEXT_BYTES, end);
          at = (int) (offset - bufferStart);
          body = at + LogFormat.RECORD_HEADER_BYTES;
          link = ByteBuffer.wrap(buffer).getLong(body + length);
          size += LogFormat.NEXT_BYTES;
        }
        case LogFormat.ACK -> {
          if (length != LogFormat.FIXED_BODY_BYTES + Long.BYTES) {
            return damaged("an acknowledgement record of " + length + " bytes", false);
          }
          link = view.getLong(body + LogFormat.FIXED_BODY_BYTES);
        }
        default -> {
          return damaged("a record of unknown type " + type, false);
        }
      }
      taskOffset = body + LogFormat.FIXED_BODY_BYTES;
      taskLength = length - LogFormat.FIXED_BODY_BYTES;
      recordStart = new LogPosition(segment, offset);
      offset += size;
      return Step.RECORD;
    }
  }

  /** The packed position of the current record's next-field (TASK records). */
  long nextField() {
    return LogFormat.position(segment, offset - LogFormat.NEXT_BYTES);
  }

  /** The packed position of the current record. */
  long recordPosition() {
    return LogFormat.position(recordStart.segment(), recordStart.offset());
  }

  private Step damaged(String why, boolean atTail) {
    damage = LogFormat.segmentName(segment) + " at byte " + offset + ": " + why;
    damageAtTail = atTail;
    return Step.DAMAGED;
  }

  /** Whether every byte of the file from {@code from} to {@code end} is zero (space allocated, never written). */
  private boolean zerosFrom(long from, long end) throws IOException {
    byte[] chunk = new byte[8192];
    for (long at = from; at < end; ) {
      int n = (int) Math.min(chunk.length, end - at);
      file.seek(at);
      file.readFully(chunk, 0, n);
      for (int i = 0; i < n; i++) {
        if (chunk[i] != 0) {
          return false;
        }
      }
      at += n;
    }
    return true;
  }

  /** Makes sure {@code bytes} bytes from {@code offset} are in the buffer (the caller checked they exist). */
  private void fill(int bytes, long end) throws IOException {
    long have = bufferStart + bufferLength - offset;
    if (offset >= bufferStart && have >= bytes) {
      return;
    }
    if (bytes > buffer.length) {
      buffer = new byte[Math.max(bytes, buffer.length * 2)];
    }
    int toRead = (int) Math.min(buffer.length, end - offset);
    file.seek(offset);
    file.readFully(buffer, 0, toRead);
    bufferStart = offset;
    bufferLength = toRead;
  }

  /** Whether segment files after this one exist (so this one is not the last). */
  boolean laterSegmentExists() {
    return Files.exists(dir.resolve(LogFormat.segmentName(segment + 1)));
  }

  @Override
  public void close() throws IOException {
    if (file != null) {
      file.close();
    }
  }
}

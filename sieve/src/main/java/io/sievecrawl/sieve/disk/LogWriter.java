package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.Durable;
import io.sievecrawl.sieve.FileWriteException;
import java.io.Closeable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Appends records to the log's current segment through a buffer, and starts a new segment when the current one is
 * full. Not thread-safe: the frontier calls it under its lock.
 *
 * <p>Records sit in the buffer until {@link #flush()}, which hands them to the operating system in one write: from
 * then on they survive a kill of the process, though not a power cut until they are {@linkplain #force forced} (a
 * full segment is forced before the next one starts, so only the last segment can ever end torn).
 *
 * <p>Files are written through {@link RandomAccessFile}, not a {@code FileChannel}: an interrupt of a thread inside
 * a channel operation closes the channel for every thread, and crawl workers may be interrupted.
 */
final class LogWriter implements Closeable {
  private static final int BUFFER_BYTES = 256 * 1024;

  private final Path dir;
  private final long segmentBytes;
  private final SegmentFiles files;
  private ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
  private RandomAccessFile file;
  private long segment;
  private long firstSeq; // of the current segment
  private long written; // bytes of the current segment handed to the operating system

  private LogWriter(Path dir, long segmentBytes, SegmentFiles files) {
    this.dir = dir;
    this.segmentBytes = segmentBytes;
    this.files = files;
  }

  /** A writer that starts segment {@code segment}, whose first task will have sequence number {@code firstSeq}. */
  static LogWriter startSegment(Path dir, long segmentBytes, SegmentFiles files, long segment, long firstSeq)
      throws IOException {
    LogWriter writer = new LogWriter(dir, segmentBytes, files);
    writer.create(segment, firstSeq);
    return writer;
  }

  /** A writer that appends to the existing segment {@code segment} from byte {@code end}, cutting anything after. */
  static LogWriter append(Path dir, long segmentBytes, SegmentFiles files, long segment, long firstSeq, long end)
      throws IOException {
    LogWriter writer = new LogWriter(dir, segmentBytes, files);
    writer.firstSeq = firstSeq;
    writer.file = new RandomAccessFile(dir.resolve(LogFormat.segmentName(segment)).toFile(), "rw");
    writer.file.setLength(end);
    writer.file.seek(end);
    writer.segment = segment;
    writer.written = end;
    return writer;
  }

  private void create(long number, long firstSeq) throws IOException {
    Path path = dir.resolve(LogFormat.segmentName(number));
    if (Files.exists(path)) {
      throw new FrontierCorruptException(path + ": exists already, but the log ends before it");
    }
    file = new RandomAccessFile(path.toFile(), "rw");
    file.write(LogFormat.header(number, firstSeq).array());
    segment = number;
    this.firstSeq = firstSeq;
    written = LogFormat.HEADER_BYTES;
    Durable.syncDirectory(dir);
  }

  /**
   * Buffers a TASK record and returns the position of its next-field; {@code seq} goes into the header of a new
   * segment if this record starts one.
   */
  long appendTask(long seq, int queue, byte[] task) throws IOException {
    int size = LogFormat.recordBytes(LogFormat.TASK, task.length);
    makeRoom(size, seq);
    long start = written + buffer.position();
    LogFormat.putTask(buffer, seq, queue, task);
    long nextField = LogFormat.position(segment, start + size - LogFormat.NEXT_BYTES);
    shrinkBuffer();
    return nextField;
  }

  /** Buffers an ACK record; {@code nextSeq} (the next task's number) heads a new segment if this record starts one. */
  void appendAck(long seq, int queue, long resume, long nextSeq) throws IOException {
    makeRoom(LogFormat.recordBytes(LogFormat.ACK, 0), nextSeq);
    LogFormat.putAck(buffer, seq, queue, resume);
  }

  /** The position the next record will start at, were it written now without starting a segment. */
  long end() {
    return LogFormat.position(segment, written + buffer.position());
  }

  private void makeRoom(int size, long firstSeqOfNext) throws IOException {
    long end = written + buffer.position();
    if (end + size > segmentBytes && end > LogFormat.HEADER_BYTES) {
      rotate(firstSeqOfNext);
    }
    if (size > buffer.remaining()) {
      flush();
      if (size > buffer.capacity()) {
        buffer = ByteBuffer.allocate(size); // a record larger than the buffer: rare; it shrinks back below
      }
    }
  }

  private void shrinkBuffer() throws IOException {
    if (buffer.capacity() > BUFFER_BYTES) {
      flush();
      buffer = ByteBuffer.allocate(BUFFER_BYTES);
    }
  }

  /**
   * Sets the next-field at {@code nextField} (a position {@link #appendTask} returned) to {@code value}: in the
   * buffer while the record is there, in its segment file after.
   */
  void patchNext(long nextField, long value) throws IOException {
    long offset = LogFormat.offsetOf(nextField);
    if (LogFormat.segmentOf(nextField) == segment && offset >= written) {
      buffer.putLong((int) (offset - written), value);
    } else {
      files.writeLong(nextField, value);
    }
  }

  /** Flushes the buffer if the record at {@code position} is still in it, so that it can be read from its file. */
  void flushThrough(long position) throws IOException {
    if (LogFormat.segmentOf(position) == segment && LogFormat.offsetOf(position) >= written) {
      flush();
    }
  }

  /** Hands the buffered records to the operating system. */
  void flush() throws IOException {
    if (buffer.position() == 0) {
      return;
    }
    try {
      file.write(buffer.array(), 0, buffer.position());
    } catch (IOException e) {
      throw new FileWriteException(dir.resolve(LogFormat.segmentName(segment)), e);
    }
    written += buffer.position();
    buffer.clear();
  }

  private void rotate(long firstSeqOfNext) throws IOException {
    flush();
    file.getFD().sync();
    file.close();
    create(segment + 1, firstSeqOfNext);
  }

  /** The position after the last flushed record. */
  LogPosition flushedEnd() {
    return new LogPosition(segment, written);
  }

  long segment() {
    return segment;
  }

  /** The lowest sequence number a task in the current segment can have. */
  long firstSeq() {
    return firstSeq;
  }

  /** The current segment's file, to {@linkplain #force force} outside the frontier's lock. */
  RandomAccessFile file() {
    return file;
  }

  /**
   * Forces what was flushed to {@code file} to the device. A file closed by a rotation in the meantime was forced
   * before it was closed.
   */
  static void force(RandomAccessFile file) throws IOException {
    try {
      file.getFD().sync();
    } catch (IOException e) {
      if (file.getChannel().isOpen()) {
        throw e;
      }
    }
  }

  @Override
  public void close() throws IOException {
    try {
      flush();
      file.getFD().sync();
    } finally {
      file.close();
    }
  }
}

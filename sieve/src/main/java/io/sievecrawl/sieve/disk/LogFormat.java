package io.sievecrawl.sieve.disk;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The bytes of the frontier log.
 *
 * <pre>
 * segment file log-NNNNNNNNNNNN.seg:
 *   header   4  magic "SVLG"
 *            4  format version, currently 2
 *            8  segment number (the NNNNNNNNNNNN of the name)
 *            8  first sequence number: every task in this segment or a later one has a sequence number at or above it
 *   records, each:
 *            4  body length L (big-endian)
 *            4  CRC-32C of the body
 *            L  body: 1 type byte, 8 sequence number, 4 queue number, then by type:
 *                 TASK  the encoded task
 *                 ACK   8 the queue's resume position: where its oldest task not acknowledged lies, 0 if none
 *            8  TASK only, outside the checksum: the position of the next TASK of the same queue, 0 until there is one
 * </pre>
 *
 * Sequence numbers count tasks from 1 in log order; an ACK carries the sequence number of the task it acknowledges.
 * A position packs a segment number and a byte offset into one long ({@link #position}). The next-field is the only
 * byte range ever written twice: it chains a queue's tasks, so that a queue is read in order without reading the
 * others; recovery checks every chain against the order of the log and mends it.
 */
final class LogFormat {
  static final int MAGIC = 0x53564c47; // "SVLG"
  static final int VERSION = 2;
  static final int HEADER_BYTES = 24;
  static final int RECORD_HEADER_BYTES = 8;
  static final int NEXT_BYTES = 8;
  /** Type, sequence number and queue number. */
  static final int FIXED_BODY_BYTES = 1 + Long.BYTES + Integer.BYTES;
  /** Larger bodies cannot be written: a length above it in a file means corruption. */
  static final int MAX_BODY_BYTES = 16 << 20;

  static final byte TASK = 1;
  static final byte ACK = 3;

  private static final int OFFSET_BITS = 40;
  private static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;

  private LogFormat() {}

  static String segmentName(long segment) {
    return String.format("log-%012d.seg", segment);
  }

  /** The segment number of a file named like {@link #segmentName}, or -1. */
  static long segmentNumber(String fileName) {
    if (!fileName.startsWith("log-") || !fileName.endsWith(".seg") || fileName.length() != 20) {
      return -1;
    }
    try {
      return Long.parseLong(fileName.substring(4, 16));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** A position: {@code offset} in segment {@code segment}, never 0 (offsets start after the segment header). */
  static long position(long segment, long offset) {
    return segment << OFFSET_BITS | offset;
  }

  static long segmentOf(long position) {
    return position >>> OFFSET_BITS;
  }

  static long offsetOf(long position) {
    return position & OFFSET_MASK;
  }

  static String describe(long position) {
    return segmentName(segmentOf(position)) + " at byte " + offsetOf(position);
  }

  static ByteBuffer header(long segment, long firstSeq) {
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
    header.putInt(MAGIC).putInt(VERSION).putLong(segment).putLong(firstSeq).flip();
    return header;
  }

  /** Bytes a record takes in the file, headers and next-field included. */
  static int recordBytes(byte type, int taskBytes) {
    return RECORD_HEADER_BYTES + bodyLength(type, taskBytes) + (type == TASK ? NEXT_BYTES : 0);
  }

  static int bodyLength(byte type, int taskBytes) {
    return FIXED_BODY_BYTES + (type == ACK ? Long.BYTES : taskBytes);
  }

  /** Writes a TASK record into {@code out}, which has room for it, with a next-field of 0. */
  static void putTask(ByteBuffer out, long seq, int queue, byte[] task) {
    int start = putHeadAndFixed(out, TASK, seq, queue, task.length);
    out.put(task);
    sealBody(out, start);
    out.putLong(0);
  }

  /** Writes an ACK record into {@code out}, which has room for it. */
  static void putAck(ByteBuffer out, long seq, int queue, long resume) {
    int start = putHeadAndFixed(out, ACK, seq, queue, 0);
    out.putLong(resume);
    sealBody(out, start);
  }

  private static int putHeadAndFixed(ByteBuffer out, byte type, long seq, int queue, int taskBytes) {
    int start = out.position();
    out.putInt(bodyLength(type, taskBytes)).putInt(0);
    out.put(type).putLong(seq).putInt(queue);
    return start;
  }

  private static void sealBody(ByteBuffer out, int start) {
    int bodyStart = start + RECORD_HEADER_BYTES;
    CRC32C crc = new CRC32C();
    crc.update(out.duplicate().position(bodyStart).limit(out.position()));
    out.putInt(start + 4, (int) crc.getValue());
  }

  static int crcOf(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}

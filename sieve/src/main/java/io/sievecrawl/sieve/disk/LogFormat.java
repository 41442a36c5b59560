package io.sievecrawl.sieve.disk;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The bytes of the frontier log.
 *
 * <pre>
 * segment file log-NNNNNNNNNNNN.seg:
 *   header   4  magic "SVLG"
 *            4  format version, currently 1
 *            8  segment number (the NNNNNNNNNNNN of the name)
 *            8  first sequence number: every task in this segment or a later one has a sequence number at or above it
 *   records, each:
 *            4  body length L (big-endian)
 *            4  CRC-32C of the body
 *            L  body: 1 type byte, 8 sequence number, then by type:
 *                 TASK     the encoded task
 *                 REQUEUE  8 the sequence number it replaces (acknowledged by this record), the encoded task
 *                 ACK      nothing: the sequence number is the task acknowledged
 * </pre>
 *
 * Sequence numbers count tasks (TASK and REQUEUE records) from 1 in log order.
 */
final class LogFormat {
  static final int MAGIC = 0x53564c47; // "SVLG"
  static final int VERSION = 1;
  static final int HEADER_BYTES = 24;
  static final int RECORD_HEADER_BYTES = 8;
  /** Larger bodies cannot be written: a length above it in a file means corruption. */
  static final int MAX_BODY_BYTES = 16 << 20;

  static final byte TASK = 1;
  static final byte REQUEUE = 2;
  static final byte ACK = 3;

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

  static ByteBuffer header(long segment, long firstSeq) {
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
    header.putInt(MAGIC).putInt(VERSION).putLong(segment).putLong(firstSeq).flip();
    return header;
  }

  static int bodyLength(byte type, int taskBytes) {
    return 1 + Long.BYTES + (type == REQUEUE ? Long.BYTES : 0) + taskBytes;
  }

  /** Writes one whole record into {@code out}, which has room for it. */
  static void putRecord(ByteBuffer out, byte type, long seq, long replacedSeq, byte[] task) {
    int taskBytes = task == null ? 0 : task.length;
    int length = bodyLength(type, taskBytes);
    int start = out.position();
    out.putInt(length).putInt(0);
    int bodyStart = out.position();
    out.put(type).putLong(seq);
    if (type == REQUEUE) {
      out.putLong(replacedSeq);
    }
    if (task != null) {
      out.put(task);
    }
    CRC32C crc = new CRC32C();
    crc.update(out.duplicate().position(bodyStart).limit(bodyStart + length));
    out.putInt(start + 4, (int) crc.getValue());
  }

  static int crcOf(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}

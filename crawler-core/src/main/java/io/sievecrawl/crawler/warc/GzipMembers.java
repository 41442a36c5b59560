package io.sievecrawl.crawler.warc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Finds where the complete gzip members of a file end. A WARC file holds one member per record, and a member is
 * complete only once its trailer (CRC-32 and length of what it holds) is written and checks out: a file cut off by
 * a crash ends in an incomplete member, or in garbage, and everything from there on is cut away.
 */
final class GzipMembers {
  private static final int FHCRC = 0x02;
  private static final int FEXTRA = 0x04;
  private static final int FNAME = 0x08;
  private static final int FCOMMENT = 0x10;
  private static final int CHUNK = 64 * 1024;

  private GzipMembers() {}

  /** The length of the longest prefix of {@code file} made of complete, intact gzip members. */
  static long completeLength(FileChannel file) throws IOException {
    long size = file.size();
    long position = 0;
    while (position < size) {
      long end = memberEnd(file, position);
      if (end < 0) {
        break;
      }
      position = end;
    }
    return position;
  }

  /**
   * Where the first complete, intact gzip member after {@code from} starts, or -1 if there is none: a file whose
   * damage is followed by such a member was damaged in the middle, not cut off at its end.
   */
  static long intactMemberAfter(FileChannel file, long from) throws IOException {
    long size = file.size();
    byte[] chunk = new byte[CHUNK + 2];
    for (long at = from + 1; at < size - 2; at += CHUNK) {
      int n = file.read(ByteBuffer.wrap(chunk, 0, (int) Math.min(chunk.length, size - at)), at);
      for (int i = 0; i + 2 < n && i < CHUNK; i++) {
        if ((chunk[i] & 0xff) == 0x1f && (chunk[i + 1] & 0xff) == 0x8b && chunk[i + 2] == 8
            && memberEnd(file, at + i) >= 0) {
          return at + i;
        }
      }
    }
    return -1;
  }

  /** Where the member starting at {@code start} ends, or -1 if it is incomplete or damaged. */
  private static long memberEnd(FileChannel file, long start) throws IOException {
    Reader in = new Reader(file, start);
    if (in.next() != 0x1f || in.next() != 0x8b || in.next() != 8) {
      return -1;
    }
    int flags = in.next();
    if (flags < 0 || in.skip(6) < 0) { // MTIME, XFL, OS
      return -1;
    }
    if ((flags & FEXTRA) != 0) {
      int low = in.next();
      int high = in.next();
      if (high < 0 || in.skip(low | high << 8) < 0) {
        return -1;
      }
    }
    if ((flags & FNAME) != 0 && in.skipPastZero() < 0 || (flags & FCOMMENT) != 0 && in.skipPastZero() < 0) {
      return -1;
    }
    if ((flags & FHCRC) != 0 && in.skip(2) < 0) {
      return -1;
    }
    long dataStart = in.position;
    Inflater inflater = new Inflater(true);
    try {
      CRC32 crc = new CRC32();
      byte[] input = new byte[CHUNK];
      byte[] output = new byte[CHUNK];
      long fed = dataStart;
      while (!inflater.finished()) {
        if (inflater.needsInput()) {
          int n = file.read(ByteBuffer.wrap(input), fed);
          if (n <= 0) {
            return -1; // the member goes past the end of the file
          }
          fed += n;
          inflater.setInput(input, 0, n);
        }
        int n = inflater.inflate(output);
        crc.update(output, 0, n);
        if (n == 0 && inflater.needsDictionary()) {
          return -1;
        }
      }
      long trailer = dataStart + inflater.getBytesRead();
      ByteBuffer eight = ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      while (eight.hasRemaining()) {
        if (file.read(eight, trailer + eight.position()) <= 0) {
          return -1;
        }
      }
      eight.flip();
      long storedCrc = eight.getInt() & 0xffffffffL;
      long storedSize = eight.getInt() & 0xffffffffL;
      if (storedCrc != crc.getValue() || storedSize != (inflater.getBytesWritten() & 0xffffffffL)) {
        return -1;
      }
      return trailer + 8;
    } catch (DataFormatException e) {
      return -1;
    } finally {
      inflater.end();
    }
  }

  /** Byte-at-a-time reads of a gzip header, from a position in the file. */
  private static final class Reader {
    private final FileChannel file;
    private final ByteBuffer one = ByteBuffer.allocate(1);
    long position;

    Reader(FileChannel file, long position) {
      this.file = file;
      this.position = position;
    }

    int next() throws IOException {
      one.clear();
      if (file.read(one, position) <= 0) {
        return -1;
      }
      position++;
      return one.get(0) & 0xff;
    }

    long skip(long n) throws IOException {
      if (position + n > file.size()) {
        return -1;
      }
      position += n;
      return n;
    }

    long skipPastZero() throws IOException {
      int b;
      do {
        b = next();
      } while (b > 0);
      return b;
    }
  }
}

package io.sievecrawl.crawler.warc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Compresses one WARC record as one gzip member (RFC 1952), at the default level: many threads compress their own
 * records at once, and the archive only appends the finished bytes. Deflaters are pooled: creating one allocates a
 * few hundred kilobytes of native memory, too much to do per record (so are its buffers, which are zeroed).
 */
final class GzipMemberWriter {
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff};
  private static final int CHUNK = 16 * 1024;
  private static final Queue<Compressor> COMPRESSORS = new ConcurrentLinkedQueue<>();

  private GzipMemberWriter() {}

  /** A deflater and its buffers, reused from record to record. */
  private static final class Compressor {
    final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    final CRC32 crc = new CRC32();
    final byte[] input = new byte[CHUNK];
    final byte[] output = new byte[CHUNK];
  }

  /** Reads {@code in} to its end and writes it to {@code out} as one complete gzip member. */
  static void write(InputStream in, OutputStream out) throws IOException {
    Compressor c = COMPRESSORS.poll();
    if (c == null) {
      c = new Compressor();
    }
    try {
      Deflater deflater = c.deflater;
      out.write(HEADER);
      long length = 0;
      int n;
      while ((n = in.read(c.input)) != -1) {
        c.crc.update(c.input, 0, n);
        length += n;
        deflater.setInput(c.input, 0, n);
        while (!deflater.needsInput()) {
          out.write(c.output, 0, deflater.deflate(c.output));
        }
      }
      deflater.finish();
      while (!deflater.finished()) {
        out.write(c.output, 0, deflater.deflate(c.output));
      }
      writeIntLe(out, (int) c.crc.getValue());
      writeIntLe(out, (int) length);
    } finally {
      c.deflater.reset();
      c.crc.reset();
      COMPRESSORS.offer(c);
    }
  }

  private static void writeIntLe(OutputStream out, int value) throws IOException {
    out.write(value);
    out.write(value >>> 8);
    out.write(value >>> 16);
    out.write(value >>> 24);
  }
}

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
 * few hundred kilobytes of native memory, too much to do per record.
 */
final class GzipMemberWriter {
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff};
  private static final int CHUNK = 16 * 1024;
  private static final Queue<Deflater> DEFLATERS = new ConcurrentLinkedQueue<>();

  private GzipMemberWriter() {}

  /** Reads {@code in} to its end and writes it to {@code out} as one complete gzip member. */
  static void write(InputStream in, OutputStream out) throws IOException {
    Deflater deflater = DEFLATERS.poll();
    if (deflater == null) {
      deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    }
    try {
      CRC32 crc = new CRC32();
      byte[] input = new byte[CHUNK];
      byte[] output = new byte[CHUNK];
      out.write(HEADER);
      long length = 0;
      int n;
      while ((n = in.read(input)) != -1) {
        crc.update(input, 0, n);
        length += n;
        deflater.setInput(input, 0, n);
        while (!deflater.needsInput()) {
          out.write(output, 0, deflater.deflate(output));
        }
      }
      deflater.finish();
      while (!deflater.finished()) {
        out.write(output, 0, deflater.deflate(output));
      }
      writeIntLe(out, (int) crc.getValue());
      writeIntLe(out, (int) length);
    } finally {
      deflater.reset();
      DEFLATERS.offer(deflater);
    }
  }

  private static void writeIntLe(OutputStream out, int value) throws IOException {
    out.write(value);
    out.write(value >>> 8);
    out.write(value >>> 16);
    out.write(value >>> 24);
  }
}

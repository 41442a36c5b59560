package io.sievecrawl.crawler.fetch;

import java.io.EOFException;
import java.io.IOException;
import java.util.Locale;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import okio.Buffer;
import okio.HashingSource;
import org.netpreserve.jwarc.WarcDigest;
import okio.BufferedSource;
import okio.GzipSource;
import okio.Okio;
import okio.Source;

/**
 * Reads response bodies as they come over the wire, up to a cap, and decodes their content coding for parsing.
 *
 * <p>The crawler asks for {@code gzip} itself instead of letting OkHttp decompress transparently, so that the bytes
 * the server sent stay available (to a WARC capture, and to the size cap, which counts bytes received) while the
 * page is parsed from the decoded bytes. A body cut off at the cap is decoded as far as it goes: a truncated page
 * still yields the links in the part that was read.
 */
public final class Bodies {
  /** What the crawler asks for: gzip, which every server that compresses speaks. */
  public static final String ACCEPT_ENCODING = "gzip";
  private static final int READ_CHUNK = 16 * 1024;

  private Bodies() {}

  /**
   * A body as read: its bytes received (all of them, or only counted when not kept) and whether the cap cut it.
   *
   * @param bytes the bytes kept, as sent (content-coded); empty when not kept
   * @param length bytes received in all, at most the cap
   * @param truncated whether the body went on past the cap
   * @param cutOff the failure that ended the body before its end (the connection dropped, a read timed out), or
   *     {@code null} when it was read to its end or to the cap
   * @param payloadDigest the WARC payload digest of the whole body ({@code sha1:BASE32}), when it was asked for and
   *     the body came whole; else {@code null}
   */
  public record Raw(Buffer bytes, long length, boolean truncated, IOException cutOff, String payloadDigest) {
    /** A body not read at all. */
    static Raw notRead(boolean truncated) {
      return new Raw(new Buffer(), 0, truncated, null, null);
    }
  }

  /**
   * Reads {@code source} to its end or until {@code cap} bytes, without a digest; reads one byte past the cap at
   * most, to tell a body of exactly {@code cap} bytes from a longer one.
   *
   * @param keep whether to keep the bytes, or only count them
   * @throws IOException if the body ends in a failure before its end
   */
  public static Raw read(BufferedSource source, long cap, boolean keep) throws IOException {
    Raw raw = readUntilCut(source, cap, keep, false);
    if (raw.cutOff() != null) {
      throw raw.cutOff();
    }
    return raw;
  }

  /**
   * As {@link #read}, but a failure in the middle of the body ends the read with what came before it, and the
   * failure in {@link Raw#cutOff()}: a page cut off by the network still yields the links in its part received.
   *
   * @param digest whether to compute the body's payload digest as it is read, a SHA-1 (about 20 µs for a page of
   *     30 KB): for a record that needs it, not for every page
   */
  public static Raw readUntilCut(BufferedSource source, long cap, boolean keep, boolean digest) {
    Buffer kept = new Buffer();
    Buffer chunk = new Buffer();
    long read = 0;
    boolean truncated = false;
    // The payload digest, as WARC defines it: over the body as sent (content-coded), whole. A recrawl compares it.
    HashingSource hashing = digest ? HashingSource.sha1(source) : null;
    Source in = digest ? hashing : source;
    try {
      long n;
      while ((n = in.read(chunk, Math.min(READ_CHUNK, cap - read + 1))) != -1) {
        if (read + n > cap) {
          n = cap - read;
          truncated = true;
        }
        read += n;
        if (keep) {
          kept.write(chunk, n);
        }
        chunk.clear();
        if (truncated) {
          break;
        }
      }
    } catch (IOException e) {
      return new Raw(kept, read, false, e, null);
    }
    return new Raw(kept, read, truncated, null, truncated || !digest ? null
        : new WarcDigest("sha1", hashing.hash().toByteArray()).prefixedBase32());
  }

  /**
   * The decoded bytes of {@code raw}, at most {@code cap} of them. A body whose coding ends early (cut off at the cap
   * or by the server) gives what could be decoded before the cut.
   *
   * @throws IOException if the body is not in the coding it claims, or in one other than identity, gzip, x-gzip and
   *     deflate
   */
  public static Decoded decode(Buffer raw, String contentEncoding, long cap) throws IOException {
    String coding = normalize(contentEncoding);
    return switch (coding) {
      case "", "identity" -> limit(raw, cap);
      case "gzip", "x-gzip" -> gunzip(raw, cap);
      case "deflate" -> inflate(raw, cap);
      default -> throw new IOException("unsupported Content-Encoding '" + contentEncoding + "'");
    };
  }

  /** Decoded bytes, and whether decoding stopped at the cap with more to come. */
  public record Decoded(byte[] bytes, boolean truncated) {}

  private static Decoded limit(Buffer raw, long cap) throws IOException {
    boolean over = raw.size() > cap;
    return new Decoded(raw.readByteArray(Math.min(raw.size(), cap)), over);
  }

  private static Decoded gunzip(Buffer raw, long cap) throws IOException {
    Buffer out = new Buffer();
    boolean over = false;
    try (BufferedSource gzip = Okio.buffer(new GzipSource(raw))) {
      long n;
      while ((n = gzip.read(out, READ_CHUNK)) != -1) {
        if (out.size() > cap) {
          over = true;
          break;
        }
      }
    } catch (EOFException e) {
      // the compressed stream was cut off: keep what was decoded before the cut
    }
    return new Decoded(out.readByteArray(Math.min(out.size(), cap)), over);
  }

  /** deflate as servers send it: zlib-wrapped as RFC 9110 says, or raw as some servers do. */
  private static Decoded inflate(Buffer raw, long cap) throws IOException {
    byte[] input = raw.readByteArray();
    try {
      return inflate(input, cap, false);
    } catch (DataFormatException wrapped) {
      try {
        return inflate(input, cap, true);
      } catch (DataFormatException bare) {
        throw new IOException("body is not deflate-coded: " + bare.getMessage());
      }
    }
  }

  private static Decoded inflate(byte[] input, long cap, boolean nowrap) throws DataFormatException, IOException {
    Inflater inflater = new Inflater(nowrap);
    try {
      inflater.setInput(input);
      Buffer out = new Buffer();
      byte[] block = new byte[READ_CHUNK];
      while (!inflater.finished() && out.size() <= cap) {
        int n = inflater.inflate(block);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          break; // cut off: keep what was decoded
        }
        out.write(block, 0, n);
      }
      boolean over = out.size() > cap;
      return new Decoded(out.readByteArray(Math.min(out.size(), cap)), over);
    } finally {
      inflater.end();
    }
  }

  private static String normalize(String contentEncoding) {
    return contentEncoding == null ? "" : contentEncoding.trim().toLowerCase(Locale.ROOT);
  }
}

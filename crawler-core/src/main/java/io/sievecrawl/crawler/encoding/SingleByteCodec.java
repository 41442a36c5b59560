package io.sievecrawl.crawler.encoding;

import static io.sievecrawl.crawler.encoding.WebEncoding.Encoder.ENCODED;

import java.nio.charset.StandardCharsets;

/**
 * A legacy single-byte encoding (windows-1252, ISO-8859-2, KOI8-R, ...): ASCII, and bytes 0x80 to 0xFF through its
 * index of 128 code points; a byte the index has no code point for is U+FFFD.
 */
final class SingleByteCodec extends Codec {
  /*
   * Decoding is one table look-up per byte. Most pages in these encodings are mostly ASCII, and in windows-1252,
   * the default for a page that declares nothing, the bytes 0xA0 to 0xFF are their Latin-1 code points: a text
   * with no byte outside ASCII and that Latin-1 range is made by the JDK's Latin-1 constructor, a plain copy into
   * a compact string.
   */
  private final String indexName;
  private volatile Table table;

  /** The decoding table and what the encoder needs, read on first use. */
  private record Table(char[] upperHalf, int latin1From) {}

  SingleByteCodec(String indexName) {
    this.indexName = indexName;
  }

  private Table table() {
    Table t = table;
    if (t == null) {
      int[] index = Indexes.get(indexName);
      char[] upperHalf = new char[128];
      int latin1From = 0x100;
      for (int b = 0xFF; b >= 0x80; b--) {
        int codePoint = index[b - 0x80];
        upperHalf[b - 0x80] = codePoint == Indexes.NONE ? '\uFFFD' : (char) codePoint;
        if (codePoint == b && latin1From == b + 1) {
          latin1From = b;
        }
      }
      t = new Table(upperHalf, latin1From);
      table = t;
    }
    return t;
  }

  @Override
  String decode(byte[] bytes, int offset, int length) {
    Table t = table();
    int end = offset + length;
    int i = offset;
    while (i < end && (bytes[i] >= 0 || (bytes[i] & 0xFF) >= t.latin1From)) {
      i++;
    }
    if (i == end) {
      return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    }
    char[] out = new char[length];
    for (i = 0; i < length; i++) {
      int b = bytes[offset + i];
      out[i] = b >= 0 ? (char) b : t.upperHalf[b & 0x7F];
    }
    return new String(out);
  }

  @Override
  WebEncoding.Encoder newEncoder() {
    int[] index = Indexes.get(indexName);
    return (codePoint, out) -> {
      if (codePoint < 0x80) {
        out.accept(codePoint);
        return ENCODED;
      }
      for (int pointer = 0; pointer < 128; pointer++) { // the first pointer, as "index pointer" asks
        if (index[pointer] == codePoint) {
          out.accept(pointer + 0x80);
          return ENCODED;
        }
      }
      return codePoint;
    };
  }
}

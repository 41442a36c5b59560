package io.sievecrawl.crawler.encoding;

import static io.sievecrawl.crawler.encoding.WebEncoding.Encoder.ENCODED;

import java.util.function.IntConsumer;

/** x-user-defined: ASCII, and bytes 0x80 to 0xFF as U+F780 to U+F7FF. */
final class XUserDefinedCodec extends Codec {
  @Override
  String decode(byte[] bytes, int offset, int length) {
    char[] out = new char[length];
    for (int i = 0; i < length; i++) {
      int b = bytes[offset + i];
      out[i] = (char) (b >= 0 ? b : 0xF780 + (b & 0x7F));
    }
    return new String(out);
  }

  @Override
  WebEncoding.Encoder newEncoder() {
    return XUserDefinedCodec::encode;
  }

  private static int encode(int codePoint, IntConsumer out) {
    if (codePoint < 0x80) {
      out.accept(codePoint);
      return ENCODED;
    }
    if (codePoint >= 0xF780 && codePoint <= 0xF7FF) {
      out.accept(codePoint - 0xF780 + 0x80);
      return ENCODED;
    }
    return codePoint;
  }
}

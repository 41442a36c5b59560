package io.sievecrawl.crawler.encoding;

import static io.sievecrawl.crawler.encoding.WebEncoding.Encoder.ENCODED;

import java.nio.charset.StandardCharsets;
import java.util.function.IntConsumer;

/**
 * UTF-8. Valid input is decoded by the JDK (its fastest path); input it replaced something in is decoded again by
 * the standard's decoder, which replaces as Unicode's "best practice for using U+FFFD" says: the JDK gives one
 * U+FFFD for an encoded surrogate such as 0xED 0xA0 0x80, where the standard gives three.
 */
final class Utf8Codec extends Codec {
  @Override
  String decode(byte[] bytes, int offset, int length) {
    String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
    return text.indexOf('\uFFFD') < 0 ? text : decodeAsTheStandard(bytes, offset, length);
  }

  private static String decodeAsTheStandard(byte[] bytes, int offset, int length) {
    TextBuffer out = new TextBuffer(length);
    int end = offset + length;
    int i = offset;
    while (i < end) {
      int b = bytes[i++] & 0xFF;
      if (b < 0x80) {
        out.append(b);
        continue;
      }
      int needed;
      int codePoint;
      int lower = 0x80;
      int upper = 0xBF;
      if (b >= 0xC2 && b <= 0xDF) {
        needed = 1;
        codePoint = b & 0x1F;
      } else if (b >= 0xE0 && b <= 0xEF) {
        lower = b == 0xE0 ? 0xA0 : lower;
        upper = b == 0xED ? 0x9F : upper;
        needed = 2;
        codePoint = b & 0xF;
      } else if (b >= 0xF0 && b <= 0xF4) {
        lower = b == 0xF0 ? 0x90 : lower;
        upper = b == 0xF4 ? 0x8F : upper;
        needed = 3;
        codePoint = b & 0x7;
      } else {
        out.error();
        continue;
      }
      while (needed > 0) {
        if (i == end) {
          out.error(); // cut short by the end
          break;
        }
        int next = bytes[i] & 0xFF;
        if (next < lower || next > upper) {
          out.error(); // this byte starts over
          break;
        }
        lower = 0x80;
        upper = 0xBF;
        codePoint = codePoint << 6 | (next & 0x3F);
        i++;
        if (--needed == 0) {
          out.append(codePoint);
        }
      }
    }
    return out.toString();
  }

  @Override
  WebEncoding.Encoder newEncoder() {
    return Utf8Codec::encode;
  }

  private static int encode(int codePoint, IntConsumer out) {
    if (codePoint < 0x80) {
      out.accept(codePoint);
    } else if (codePoint < 0x800) {
      out.accept(0xC0 | codePoint >> 6);
      out.accept(0x80 | codePoint & 0x3F);
    } else if (codePoint < 0x10000) {
      out.accept(0xE0 | codePoint >> 12);
      out.accept(0x80 | codePoint >> 6 & 0x3F);
      out.accept(0x80 | codePoint & 0x3F);
    } else {
      out.accept(0xF0 | codePoint >> 18);
      out.accept(0x80 | codePoint >> 12 & 0x3F);
      out.accept(0x80 | codePoint >> 6 & 0x3F);
      out.accept(0x80 | codePoint & 0x3F);
    }
    return ENCODED;
  }
}

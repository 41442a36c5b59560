package io.sievecrawl.crawler.encoding;

import static io.sievecrawl.crawler.encoding.WebEncoding.Encoder.ENCODED;

import java.util.function.IntConsumer;

/**
 * Shift_JIS as the standard has it (windows-31j): JIS X 0208 with the NEC and IBM extensions from index jis0208,
 * halfwidth katakana at 0xA1 to 0xDF, and the user-defined area 0xF0 0x40 to 0xF9 0xFC as Private Use code points.
 */
final class ShiftJisCodec extends Codec {
  /** The index, read on the first page in a Japanese encoding; the encoder skips NEC's copies of IBM's rows. */
  private static final class Tables {
    static final int[] INDEX = Indexes.get("jis0208");
    static final ReverseIndex REVERSE = new ReverseIndex(INDEX, 8272, 8835);
  }

  @Override
  String decode(byte[] bytes, int offset, int length) {
    TextBuffer out = new TextBuffer(length);
    int end = offset + length;
    int i = offset;
    while (i < end) {
      int lead = bytes[i] & 0xFF;
      if (lead <= 0x80) {
        out.append(lead);
        i++;
      } else if (lead >= 0xA1 && lead <= 0xDF) {
        out.append(0xFF61 - 0xA1 + lead);
        i++;
      } else if (lead == 0xA0 || lead >= 0xFD) {
        out.error();
        i++;
      } else if (i + 1 == end) {
        out.error();
        i = end;
      } else {
        i = pair(lead, bytes[i + 1] & 0xFF, i, out);
      }
    }
    return out.toString();
  }

  private static int pair(int lead, int trail, int i, TextBuffer out) {
    if ((trail >= 0x40 && trail <= 0x7E) || (trail >= 0x80 && trail <= 0xFC)) {
      int pointer = (lead - (lead < 0xA0 ? 0x81 : 0xC1)) * 188 + trail - (trail < 0x7F ? 0x40 : 0x41);
      if (pointer >= 8836 && pointer <= 10715) { // Windows' user-defined characters (EUDC)
        out.append(0xE000 - 8836 + pointer);
        return i + 2;
      }
      int codePoint = pointer < Tables.INDEX.length ? Tables.INDEX[pointer] : Indexes.NONE;
      if (codePoint != Indexes.NONE) {
        out.append(codePoint);
        return i + 2;
      }
    }
    out.error();
    return trail < 0x80 ? i + 1 : i + 2;
  }

  @Override
  WebEncoding.Encoder newEncoder() {
    return ShiftJisCodec::encode;
  }

  private static int encode(int codePoint, IntConsumer out) {
    if (codePoint <= 0x80) {
      out.accept(codePoint);
      return ENCODED;
    }
    if (codePoint == 0xA5) {
      out.accept(0x5C);
      return ENCODED;
    }
    if (codePoint == 0x203E) {
      out.accept(0x7E);
      return ENCODED;
    }
    if (codePoint >= 0xFF61 && codePoint <= 0xFF9F) {
      out.accept(codePoint - 0xFF61 + 0xA1);
      return ENCODED;
    }
    int pointer = Tables.REVERSE.firstPointer(codePoint == 0x2212 ? 0xFF0D : codePoint);
    if (pointer < 0) {
      return codePoint;
    }
    int leading = pointer / 188;
    int trailing = pointer % 188;
    out.accept(leading + (leading < 0x1F ? 0x81 : 0xC1));
    out.accept(trailing + (trailing < 0x3F ? 0x40 : 0x41));
    return ENCODED;
  }
}

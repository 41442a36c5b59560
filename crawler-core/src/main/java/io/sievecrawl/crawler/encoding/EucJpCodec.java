package io.sievecrawl.crawler.encoding;

import static io.sievecrawl.crawler.encoding.WebEncoding.Encoder.ENCODED;

import java.util.function.IntConsumer;

/**
 * EUC-JP as the standard has it: JIS X 0208 (with the NEC and IBM extensions) as two bytes 0xA1 to 0xFE, halfwidth
 * katakana after 0x8E, and JIS X 0212 after 0x8F, which the encoder does not write.
 */
final class EucJpCodec extends Codec {
  /** The indexes, read on the first page in EUC-JP. */
  private static final class Tables {
    static final int[] JIS0208 = Indexes.get("jis0208");
    static final int[] JIS0212 = Indexes.get("jis0212");
    static final ReverseIndex REVERSE = new ReverseIndex(JIS0208);
  }

  @Override
  String decode(byte[] bytes, int offset, int length) {
    TextBuffer out = new TextBuffer(length);
    int end = offset + length;
    int i = offset;
    while (i < end) {
      int lead = bytes[i] & 0xFF;
      if (lead < 0x80) {
        out.append(lead);
        i++;
      } else if (lead != 0x8E && lead != 0x8F && (lead < 0xA1 || lead == 0xFF)) {
        out.error();
        i++;
      } else if (i + 1 == end) {
        out.error();
        i = end;
      } else {
        int second = bytes[i + 1] & 0xFF;
        if (lead == 0x8E && second >= 0xA1 && second <= 0xDF) {
          out.append(0xFF61 - 0xA1 + second);
          i += 2;
        } else if (lead == 0x8F && second >= 0xA1 && second <= 0xFE) {
          i = i + 2 == end ? endsShort(out, end) : pair(Tables.JIS0212, second, bytes[i + 2] & 0xFF, i + 1, out);
        } else {
          i = pair(Tables.JIS0208, lead, second, i, out);
        }
      }
    }
    return out.toString();
  }

  private static int endsShort(TextBuffer out, int end) {
    out.error();
    return end;
  }

  /** Decodes the pair {@code lead, trail} at {@code i} from {@code index}; returns where the next sequence starts. */
  private static int pair(int[] index, int lead, int trail, int i, TextBuffer out) {
    if (lead >= 0xA1 && lead <= 0xFE && trail >= 0xA1 && trail <= 0xFE) {
      int pointer = (lead - 0xA1) * 94 + trail - 0xA1;
      int codePoint = pointer < index.length ? index[pointer] : Indexes.NONE;
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
    return EucJpCodec::encode;
  }

  private static int encode(int codePoint, IntConsumer out) {
    if (codePoint < 0x80) {
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
      out.accept(0x8E);
      out.accept(codePoint - 0xFF61 + 0xA1);
      return ENCODED;
    }
    int pointer = Tables.REVERSE.firstPointer(codePoint == 0x2212 ? 0xFF0D : codePoint);
    if (pointer < 0) {
      return codePoint;
    }
    out.accept(pointer / 94 + 0xA1);
    out.accept(pointer % 94 + 0xA1);
    return ENCODED;
  }
}

package io.sievecrawl.crawler.encoding;

import static io.sievecrawl.crawler.encoding.WebEncoding.Encoder.ENCODED;

import java.util.function.IntConsumer;

/**
 * EUC-KR as the standard has it, KS X 1001 with the Unified Hangul Code (windows-949): bytes 0x81 to 0xFE lead
 * two-byte sequences from index EUC-KR, which holds every Hangul syllable ({@code 똠} is 0x8C 0x63).
 */
final class EucKrCodec extends Codec {
  /** The index, read on the first page in EUC-KR. */
  private static final class Tables {
    static final int[] INDEX = Indexes.get("euc-kr");
    static final ReverseIndex REVERSE = new ReverseIndex(INDEX);
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
      } else if (lead == 0x80 || lead == 0xFF) {
        out.error();
        i++;
      } else if (i + 1 == end) {
        out.error();
        i = end;
      } else {
        int trail = bytes[i + 1] & 0xFF;
        int codePoint = trail >= 0x41 && trail <= 0xFE ? Tables.INDEX[(lead - 0x81) * 190 + trail - 0x41]
            : Indexes.NONE;
        if (codePoint != Indexes.NONE) {
          out.append(codePoint);
          i += 2;
        } else {
          out.error();
          i += trail < 0x80 ? 1 : 2;
        }
      }
    }
    return out.toString();
  }

  @Override
  WebEncoding.Encoder newEncoder() {
    return EucKrCodec::encode;
  }

  private static int encode(int codePoint, IntConsumer out) {
    if (codePoint < 0x80) {
      out.accept(codePoint);
      return ENCODED;
    }
    int pointer = Tables.REVERSE.firstPointer(codePoint);
    if (pointer < 0) {
      return codePoint;
    }
    out.accept(pointer / 190 + 0x81);
    out.accept(pointer % 190 + 0x41);
    return ENCODED;
  }
}

package io.sievecrawl.crawler.encoding;

import static io.sievecrawl.crawler.encoding.WebEncoding.Encoder.ENCODED;

import java.util.function.IntConsumer;

/**
 * Big5 as the standard has it, Big5 with the Hong Kong Supplementary Character Set and other common extensions:
 * bytes 0x81 to 0xFE lead two-byte sequences from index Big5; four pointers give two code points each.
 */
final class Big5Codec extends Codec {
  /** The first pointer the encoder uses: it writes no HKSCS extension literally. */
  private static final int FIRST_ENCODED_POINTER = (0xA1 - 0x81) * 157;

  /** The index, read on the first page in Big5. */
  private static final class Tables {
    static final int[] INDEX = Indexes.get("big5");
    static final ReverseIndex REVERSE = new ReverseIndex(INDEX, 0, FIRST_ENCODED_POINTER - 1);
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
        i = pair(lead, bytes[i + 1] & 0xFF, i, out);
      }
    }
    return out.toString();
  }

  private static int pair(int lead, int trail, int i, TextBuffer out) {
    if ((trail >= 0x40 && trail <= 0x7E) || (trail >= 0xA1 && trail <= 0xFE)) {
      int pointer = (lead - 0x81) * 157 + trail - (trail < 0x7F ? 0x40 : 0x62);
      switch (pointer) { // the standard's four pointers of two code points each
        case 1133 -> {
          out.append(0x00CA);
          out.append(0x0304);
          return i + 2;
        }
        case 1135 -> {
          out.append(0x00CA);
          out.append(0x030C);
          return i + 2;
        }
        case 1164 -> {
          out.append(0x00EA);
          out.append(0x0304);
          return i + 2;
        }
        case 1166 -> {
          out.append(0x00EA);
          out.append(0x030C);
          return i + 2;
        }
        default -> { }
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
    return Big5Codec::encode;
  }

  private static int encode(int codePoint, IntConsumer out) {
    if (codePoint < 0x80) {
      out.accept(codePoint);
      return ENCODED;
    }
    int pointer = switch (codePoint) { // these six take their last pointer, the others their first
      case 0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345 -> Tables.REVERSE.lastPointer(codePoint);
      default -> Tables.REVERSE.firstPointer(codePoint);
    };
    if (pointer < 0) {
      return codePoint;
    }
    int trailing = pointer % 157;
    out.accept(pointer / 157 + 0x81);
    out.accept(trailing + (trailing < 0x3F ? 0x40 : 0x62));
    return ENCODED;
  }
}

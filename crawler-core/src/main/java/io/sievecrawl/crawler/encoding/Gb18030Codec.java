package io.sievecrawl.crawler.encoding;

import static io.sievecrawl.crawler.encoding.WebEncoding.Encoder.ENCODED;

import java.util.function.IntConsumer;

/**
 * gb18030, and GBK, whose decoder is gb18030's and whose encoder writes no four-byte sequences (and U+20AC as
 * 0x80): bytes 0x81 to 0xFE lead two-byte sequences from index gb18030, or four-byte ones from the gb18030 ranges.
 */
final class Gb18030Codec extends Codec {
  private final boolean gbk;

  /** The indexes, read on the first page in gb18030 or GBK. */
  private static final class Tables {
    static final int[] INDEX = Indexes.get("gb18030");
    static final int[] RANGES = Indexes.gb18030Ranges(); // pairs of (pointer, code point), ascending in both
    static final ReverseIndex REVERSE = new ReverseIndex(INDEX);
  }

  Gb18030Codec(boolean gbk) {
    this.gbk = gbk;
  }

  @Override
  String decode(byte[] bytes, int offset, int length) {
    TextBuffer out = new TextBuffer(length);
    int end = offset + length;
    int i = offset;
    while (i < end) {
      int first = bytes[i] & 0xFF;
      if (first < 0x80) {
        out.append(first);
        i++;
      } else if (first == 0x80) {
        out.append(0x20AC);
        i++;
      } else if (first == 0xFF) {
        out.error();
        i++;
      } else if (i + 1 == end) {
        out.error(); // a sequence cut short by the end
        i = end;
      } else {
        int second = bytes[i + 1] & 0xFF;
        i = second >= 0x30 && second <= 0x39 ? fourBytes(bytes, i, end, out) : twoBytes(first, second, i, out);
      }
    }
    return out.toString();
  }

  /** Decodes the sequence of lead byte {@code first} at {@code i}; returns where the next one starts. */
  private static int twoBytes(int first, int second, int i, TextBuffer out) {
    int offset = second < 0x7F ? 0x40 : 0x41;
    if ((second >= 0x40 && second <= 0x7E) || (second >= 0x80 && second <= 0xFE)) {
      int codePoint = Tables.INDEX[(first - 0x81) * 190 + second - offset];
      if (codePoint != Indexes.NONE) {
        out.append(codePoint);
        return i + 2;
      }
    }
    out.error();
    return second < 0x80 ? i + 1 : i + 2; // an ASCII byte is read again
  }

  /** Decodes the four-byte sequence starting at {@code i}; returns where the next one starts. */
  private static int fourBytes(byte[] bytes, int i, int end, TextBuffer out) {
    if (i + 2 == end) {
      out.error();
      return end;
    }
    int third = bytes[i + 2] & 0xFF;
    if (third < 0x81 || third > 0xFE) {
      out.error();
      return i + 1; // the second and third bytes are read again
    }
    if (i + 3 == end) {
      out.error();
      return end;
    }
    int fourth = bytes[i + 3] & 0xFF;
    if (fourth < 0x30 || fourth > 0x39) {
      out.error();
      return i + 1;
    }
    int pointer = ((bytes[i] & 0xFF) - 0x81) * (10 * 126 * 10) + ((bytes[i + 1] & 0xFF) - 0x30) * (10 * 126)
        + (third - 0x81) * 10 + fourth - 0x30;
    int codePoint = rangesCodePoint(pointer);
    if (codePoint < 0) {
      out.error();
    } else {
      out.append(codePoint);
    }
    return i + 4;
  }

  /** The standard's "index gb18030 ranges code point", or -1. */
  private static int rangesCodePoint(int pointer) {
    if ((pointer > 39419 && pointer < 189000) || pointer > 1237575) {
      return -1;
    }
    if (pointer == 7457) {
      return 0xE7C7;
    }
    int[] ranges = Tables.RANGES;
    int k = lastAtOrBelow(ranges, 0, pointer);
    return ranges[k + 1] + pointer - ranges[k];
  }

  /** The standard's "index gb18030 ranges pointer". */
  private static int rangesPointer(int codePoint) {
    if (codePoint == 0xE7C7) {
      return 7457;
    }
    int[] ranges = Tables.RANGES;
    int k = lastAtOrBelow(ranges, 1, codePoint);
    return ranges[k - 1] + codePoint - ranges[k];
  }

  /** The index in {@code pairs} of the last value at {@code pairs[2j + column]} that is at most {@code key}. */
  private static int lastAtOrBelow(int[] pairs, int column, int key) {
    int low = 0;
    int high = pairs.length / 2 - 1;
    while (low < high) {
      int mid = (low + high + 1) >>> 1;
      if (pairs[2 * mid + column] <= key) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return 2 * low + column;
  }

  @Override
  WebEncoding.Encoder newEncoder() {
    return this::encode;
  }

  private int encode(int codePoint, IntConsumer out) {
    if (codePoint < 0x80) {
      out.accept(codePoint);
      return ENCODED;
    }
    if (codePoint == 0xE5E5) { // index gb18030 maps 0xA3 0xA0 to U+3000 instead: it cannot go back
      return codePoint;
    }
    if (gbk && codePoint == 0x20AC) {
      out.accept(0x80);
      return ENCODED;
    }
    int special = specialBytes(codePoint);
    if (special >= 0) {
      out.accept(special >> 8);
      out.accept(special & 0xFF);
      return ENCODED;
    }
    int pointer = Tables.REVERSE.firstPointer(codePoint);
    if (pointer >= 0) {
      int trailing = pointer % 190;
      out.accept(pointer / 190 + 0x81);
      out.accept(trailing + (trailing < 0x3F ? 0x40 : 0x41));
      return ENCODED;
    }
    if (gbk) {
      return codePoint;
    }
    pointer = rangesPointer(codePoint);
    out.accept(pointer / (10 * 126 * 10) + 0x81);
    pointer %= 10 * 126 * 10;
    out.accept(pointer / (10 * 126) + 0x30);
    pointer %= 10 * 126;
    out.accept(pointer / 10 + 0x81);
    out.accept(pointer % 10 + 0x30);
    return ENCODED;
  }

  /** The standard's side table of Private Use code points kept as GB18030-2005 wrote them, or -1. */
  private static int specialBytes(int codePoint) {
    return switch (codePoint) {
      case 0xE78D -> 0xA6D9;
      case 0xE78E -> 0xA6DA;
      case 0xE78F -> 0xA6DB;
      case 0xE790 -> 0xA6DC;
      case 0xE791 -> 0xA6DD;
      case 0xE792 -> 0xA6DE;
      case 0xE793 -> 0xA6DF;
      case 0xE794 -> 0xA6EC;
      case 0xE795 -> 0xA6ED;
      case 0xE796 -> 0xA6F3;
      case 0xE81E -> 0xFE59;
      case 0xE826 -> 0xFE61;
      case 0xE82B -> 0xFE66;
      case 0xE82C -> 0xFE67;
      case 0xE832 -> 0xFE6D;
      case 0xE843 -> 0xFE7E;
      case 0xE854 -> 0xFE90;
      case 0xE864 -> 0xFEA0;
      default -> -1;
    };
  }
}

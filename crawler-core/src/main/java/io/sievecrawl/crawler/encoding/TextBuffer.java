package io.sievecrawl.crawler.encoding;

/** The code points a decoder writes, as UTF-16 chars: a StringBuilder without its checks, sized from the input. */
final class TextBuffer {
  static final int REPLACEMENT = 0xFFFD;

  private char[] chars;
  private int length;

  /** @param bytes the input's length: one code point per byte at most, plus one for an error at its end */
  TextBuffer(int bytes) {
    chars = new char[bytes + 1];
  }

  void append(int codePoint) {
    if (length + 2 > chars.length) {
      chars = java.util.Arrays.copyOf(chars, chars.length * 2 + 2);
    }
    if (codePoint < 0x10000) {
      chars[length++] = (char) codePoint;
    } else {
      chars[length++] = Character.highSurrogate(codePoint);
      chars[length++] = Character.lowSurrogate(codePoint);
    }
  }

  void error() {
    append(REPLACEMENT);
  }

  @Override
  public String toString() {
    return new String(chars, 0, length);
  }
}

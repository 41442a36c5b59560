package io.sievecrawl.crawler.encoding;

/** UTF-16BE and UTF-16LE: the standard's shared UTF-16 decoder (a lone surrogate is U+FFFD); no encoder. */
final class Utf16Codec extends Codec {
  private final boolean bigEndian;

  Utf16Codec(boolean bigEndian) {
    this.bigEndian = bigEndian;
  }

  @Override
  String decode(byte[] bytes, int offset, int length) {
    TextBuffer out = new TextBuffer(length);
    int end = offset + length;
    int leadSurrogate = -1;
    int i = offset;
    while (i + 1 < end) {
      int first = bytes[i] & 0xFF;
      int second = bytes[i + 1] & 0xFF;
      int unit = bigEndian ? first << 8 | second : second << 8 | first;
      i += 2;
      if (leadSurrogate >= 0) {
        int lead = leadSurrogate;
        leadSurrogate = -1;
        if (Character.isLowSurrogate((char) unit)) {
          out.append(Character.toCodePoint((char) lead, (char) unit));
          continue;
        }
        out.error(); // the unit is read again on its own
        i -= 2;
        continue;
      }
      if (Character.isHighSurrogate((char) unit)) {
        leadSurrogate = unit;
      } else if (Character.isLowSurrogate((char) unit)) {
        out.error();
      } else {
        out.append(unit);
      }
    }
    if (i < end || leadSurrogate >= 0) { // an odd byte, or a lead surrogate, at the end
      out.error();
    }
    return out.toString();
  }

  @Override
  boolean encodes() {
    return false;
  }

  @Override
  WebEncoding.Encoder newEncoder() {
    throw new UnsupportedOperationException("UTF-16 has no encoder");
  }
}

package io.sievecrawl.crawler.encoding;

/**
 * An encoding's decoder and encoder, as the Encoding Standard writes them. The decoder turns a whole byte range into
 * text in one call, in replacement mode (every error is one U+FFFD); the encoder works one code point at a time.
 *
 * <p>Why not the JDK's charsets: their mappings are narrower or other than what browsers use. {@code EUC-KR} has
 * no UHC extension (U+B620 {@code 똠} is 0x8C 0x63), {@code Big5} no HKSCS, {@code Shift_JIS} and {@code EUC-JP}
 * no NEC and IBM rows; {@code windows-1252} has no bytes 0x81, 0x8D, 0x8F, 0x90 and 0x9D, which browsers read as
 * C1 controls; there is no ISO-8859-10 nor ISO-8859-14; and each replaces malformed input its own way, where the
 * standard says how many U+FFFD an invalid sequence gives and which byte starts over.
 */
abstract class Codec {
  /** The text of {@code bytes[offset, offset + length)}. */
  abstract String decode(byte[] bytes, int offset, int length);

  /** Whether the encoding has an encoder: all but UTF-16BE/LE and replacement. */
  boolean encodes() {
    return true;
  }

  /** A new encoder, for one text. */
  abstract WebEncoding.Encoder newEncoder();
}

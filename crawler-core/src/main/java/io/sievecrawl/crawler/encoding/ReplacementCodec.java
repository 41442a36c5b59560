package io.sievecrawl.crawler.encoding;

/**
 * The replacement encoding, named by labels such as {@code iso-2022-kr} and {@code hz-gb-2312} whose content could
 * smuggle markup past a server's filters: any input at all decodes to one U+FFFD. No encoder.
 */
final class ReplacementCodec extends Codec {
  @Override
  String decode(byte[] bytes, int offset, int length) {
    return length == 0 ? "" : "\uFFFD";
  }

  @Override
  boolean encodes() {
    return false;
  }

  @Override
  WebEncoding.Encoder newEncoder() {
    throw new UnsupportedOperationException("the replacement encoding has no encoder");
  }
}

package io.sievecrawl.crawler.encoding;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The codec of each encoding the standard names; built once, its indexes read on first use. */
final class Codecs {
  private Codecs() {}

  /** Every encoding of {@code encodings.json}, by name. */
  static Map<String, WebEncoding> all() {
    Map<String, WebEncoding> all = new LinkedHashMap<>();
    for (String name : Labels.names()) {
      all.put(name, new WebEncoding(name, codecOf(name)));
    }
    return java.util.Collections.unmodifiableMap(all);
  }

  private static Codec codecOf(String name) {
    return switch (name) {
      case "UTF-8" -> new Utf8Codec();
      case "GBK" -> new Gb18030Codec(true);
      case "gb18030" -> new Gb18030Codec(false);
      case "Big5" -> new Big5Codec();
      case "EUC-JP" -> new EucJpCodec();
      case "ISO-2022-JP" -> new Iso2022JpCodec();
      case "Shift_JIS" -> new ShiftJisCodec();
      case "EUC-KR" -> new EucKrCodec();
      case "replacement" -> new ReplacementCodec();
      case "UTF-16BE" -> new Utf16Codec(true);
      case "UTF-16LE" -> new Utf16Codec(false);
      case "x-user-defined" -> new XUserDefinedCodec();
      case "ISO-8859-8-I" -> new SingleByteCodec("iso-8859-8"); // the same bytes as ISO-8859-8, read left to right
      default -> new SingleByteCodec(name.toLowerCase(Locale.ROOT)); // the index is named by the lower-case name
    };
  }
}

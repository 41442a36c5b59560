package io.sievecrawl.crawler.url;

import io.sievecrawl.crawler.encoding.WebEncoding;
import java.nio.charset.StandardCharsets;
import java.util.function.IntConsumer;

/**
 * The percent-encoding of a canonical path or query (RFC 3986 section 6.2.2): escapes of unreserved characters
 * decoded, the hex of the other escapes in upper case, a {@code %} that starts no escape escaped, and every
 * character that may not appear raw encoded: as UTF-8, but a non-ASCII character of a query in the document's
 * encoding, as browsers send it (the WHATWG URL standard), so that a server that reads its queries in the encoding
 * of its pages gets what a browser would send.
 */
final class PercentEncoding {
  private static final String SUB_DELIMS = "!$&'()*+,;=";
  private static final String PATH_CHARS = SUB_DELIMS + ":@/";
  /** As browsers do, a {@code '} in a query is encoded (the URL standard's special-query set). */
  private static final String QUERY_CHARS = "!$&()*+,;=:@/?";
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private PercentEncoding() {}

  /** The canonical percent-encoding of a path. */
  static String normalizePath(String path) {
    return normalizeEscapes(path, PATH_CHARS, null);
  }

  /**
   * The canonical percent-encoding of a query, a non-ASCII character encoded in {@code encoding} (an output
   * encoding: one with an encoder).
   */
  static String normalizeQuery(String query, WebEncoding encoding) {
    return normalizeEscapes(query, QUERY_CHARS, encoding == WebEncoding.UTF_8 ? null : encoding);
  }

  /**
   * Decodes escapes of unreserved characters, upper-cases the hex of the others, escapes a {@code %} that starts
   * no escape, and encodes every character that may not appear raw (outside unreserved and {@code allowed}): as
   * UTF-8, or, if {@code legacy} is not null, a non-ASCII one in that encoding. Its encoder sees every character
   * from the first non-ASCII one on, since ISO-2022-JP's escape sequences depend on what came before.
   */
  private static String normalizeEscapes(String s, String allowed, WebEncoding legacy) {
    StringBuilder out = new StringBuilder(s.length() + 8);
    WebEncoding.Encoder encoder = null;
    IntConsumer bytes = b -> appendByte(out, b, allowed);
    Bytes switchBack = new Bytes();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80 && encoder != null) { // ISO-2022-JP may switch back to ASCII first
        switchBack.clear();
        int error = encoder.encode(c, switchBack);
        switchBack.appendTo(out, allowed, error == WebEncoding.Encoder.ENCODED ? 1 : 0); // c itself comes below
        if (error != WebEncoding.Encoder.ENCODED) { // an escape or shift control it cannot pass
          out.append("%26%23").append(error).append("%3B");
          continue;
        }
      }
      if (c == '%') {
        if (i + 2 < s.length() && isHex(s.charAt(i + 1)) && isHex(s.charAt(i + 2))) {
          int value = Integer.parseInt(s.substring(i + 1, i + 3), 16);
          if (isUnreserved(value)) {
            out.append((char) value);
          } else {
            out.append('%').append(Character.toUpperCase(s.charAt(i + 1))).append(Character.toUpperCase(s.charAt(i + 2)));
          }
          i += 2;
        } else {
          out.append("%25");
        }
      } else if (c < 0x80 && (isUnreserved(c) || allowed.indexOf(c) >= 0)) {
        out.append(c);
      } else if (c < 0x80 || legacy == null) {
        int codePoint = scalarAt(s, i);
        appendUtf8(out, codePoint, allowed);
        i += Character.charCount(codePoint) - 1;
      } else {
        if (encoder == null) {
          encoder = legacy.newEncoder();
        }
        int codePoint = scalarAt(s, i);
        int error = encoder.encode(codePoint, bytes);
        if (error != WebEncoding.Encoder.ENCODED) { // as a browser sends it: &#NNNN;, its & # ; encoded
          out.append("%26%23").append(error).append("%3B");
        }
        i += Character.charCount(codePoint) - 1;
      }
    }
    if (encoder != null) {
      encoder.finish(bytes);
    }
    return out.toString();
  }

  /** The code point at {@code i}: a lone surrogate is U+FFFD, as browsers write it. */
  private static int scalarAt(String s, int i) {
    int codePoint = s.codePointAt(i);
    return Character.isSurrogate(s.charAt(i)) && Character.charCount(codePoint) == 1 ? 0xFFFD : codePoint;
  }

  private static void appendUtf8(StringBuilder out, int codePoint, String allowed) {
    for (byte b : Character.toString(codePoint).getBytes(StandardCharsets.UTF_8)) {
      appendByte(out, b & 0xFF, allowed);
    }
  }

  /**
   * Appends one byte of an encoded character: an ASCII byte that may appear raw stays raw, as browsers send it
   * (Shift_JIS writes U+FF0E as 0x81 0x44: {@code %81D}); any other is percent-encoded.
   */
  private static void appendByte(StringBuilder out, int b, String allowed) {
    if (b < 0x80 && (isUnreserved(b) || allowed.indexOf(b) >= 0)) {
      out.append((char) b);
    } else {
      out.append('%').append(HEX[b >> 4]).append(HEX[b & 0xF]);
    }
  }

  /** The few bytes an encoder writes for one character. */
  private static final class Bytes implements IntConsumer {
    private int[] bytes = new int[8];
    private int length;

    @Override
    public void accept(int b) {
      if (length == bytes.length) {
        bytes = java.util.Arrays.copyOf(bytes, length * 2);
      }
      bytes[length++] = b;
    }

    void clear() {
      length = 0;
    }

    /** Appends all but the last {@code keep} bytes, percent-encoded where they may not appear raw. */
    void appendTo(StringBuilder out, String allowed, int keep) {
      for (int i = 0; i < length - keep; i++) {
        appendByte(out, bytes[i], allowed);
      }
    }
  }

  private static boolean isUnreserved(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || c == '-' || c == '.' || c == '_' || c == '~';
  }

  /** An ASCII hex digit: a fullwidth or Arabic-Indic digit starts no escape. */
  static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}

package io.sievecrawl.crawler.url;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

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

  private PercentEncoding() {}

  /** The canonical percent-encoding of a path. */
  static String normalizePath(String path) {
    return normalizeEscapes(path, PATH_CHARS, StandardCharsets.UTF_8);
  }

  /** The canonical percent-encoding of a query, a non-ASCII character encoded in {@code encoding}. */
  static String normalizeQuery(String query, Charset encoding) {
    return normalizeEscapes(query, QUERY_CHARS, encoding);
  }

  /**
   * Decodes escapes of unreserved characters, upper-cases the hex of the others, escapes a {@code %} that starts
   * no escape, and encodes every character that may not appear raw (outside unreserved and {@code allowed}): an
   * ASCII one as UTF-8, a non-ASCII one in {@code encoding}.
   */
  private static String normalizeEscapes(String s, String allowed, Charset encoding) {
    StringBuilder out = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
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
      } else {
        int codePoint = s.codePointAt(i);
        String character = Character.isSurrogate(c) && Character.charCount(codePoint) == 1 ? "\uFFFD"
            : Character.toString(codePoint); // a lone surrogate is U+FFFD, as browsers write it
        appendEncoded(out, character, c < 0x80 ? StandardCharsets.UTF_8 : encoding, allowed);
        i += Character.charCount(codePoint) - 1;
      }
    }
    return out.toString();
  }

  /**
   * Appends one character (or surrogate pair) percent-encoded in {@code encoding}; an ASCII byte of its encoding
   * that may appear raw stays raw, as browsers send it (Shift_JIS writes U+FF0E as 0x81 0x44: {@code %81D}); one it
   * cannot hold goes as the HTML character reference {@code &#NNNN;}, its {@code &}, {@code #} and {@code ;}
   * encoded, as a browser sends it.
   */
  private static void appendEncoded(StringBuilder out, String character, Charset encoding, String allowed) {
    if (encoding != StandardCharsets.UTF_8 && !encoding.newEncoder().canEncode(character)) {
      out.append("%26%23").append(character.codePointAt(0)).append("%3B");
      return;
    }
    for (byte b : character.getBytes(encoding)) {
      if (b >= 0 && (isUnreserved(b) || allowed.indexOf(b) >= 0)) {
        out.append((char) b);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
            .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
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

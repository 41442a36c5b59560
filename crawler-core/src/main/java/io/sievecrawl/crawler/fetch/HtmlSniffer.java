package io.sievecrawl.crawler.fetch;

import java.nio.charset.StandardCharsets;

/**
 * Whether a body served without a usable Content-Type is HTML, by the HTML rows of the WHATWG MIME Sniffing
 * standard's "rules for identifying an unknown MIME type" (section 7.1): after leading whitespace, one of
 * {@code <!DOCTYPE HTML}, {@code <HTML}, {@code <HEAD}, {@code <SCRIPT}, {@code <IFRAME}, {@code <H1}, {@code <DIV},
 * {@code <FONT}, {@code <TABLE}, {@code <A}, {@code <STYLE}, {@code <TITLE}, {@code <B}, {@code <BODY},
 * {@code <BR}, {@code <P} or {@code <!--}, in any case, followed by a space or {@code >}. A browser shows such a body
 * as a page, so the crawler follows its links. One step past the standard: a UTF-8 byte-order mark before the markup
 * is skipped (the standard would call the body text); a page that starts so is still a page.
 */
final class HtmlSniffer {
  private static final byte[][] PATTERNS = patterns("<!DOCTYPE HTML", "<HTML", "<HEAD", "<SCRIPT", "<IFRAME", "<H1",
      "<DIV", "<FONT", "<TABLE", "<A", "<STYLE", "<TITLE", "<B", "<BODY", "<BR", "<P", "<!--");

  private HtmlSniffer() {}

  /** Whether a server's Content-Type leaves the type to sniffing: none, or one the standard treats as unknown. */
  static boolean typeUnknown(String mediaType) {
    return mediaType == null || mediaType.equals("unknown/unknown") || mediaType.equals("application/unknown")
        || mediaType.equals("*/*");
  }

  /** Whether {@code body} (decoded, at least its first bytes) starts as an HTML page. */
  static boolean looksLikeHtml(byte[] body) {
    int start = 0;
    if (body.length >= 3 && (body[0] & 0xFF) == 0xEF && (body[1] & 0xFF) == 0xBB && (body[2] & 0xFF) == 0xBF) {
      start = 3;
    }
    while (start < body.length && isWhitespace(body[start])) {
      start++;
    }
    for (byte[] pattern : PATTERNS) {
      if (matches(body, start, pattern)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(byte[] body, int start, byte[] pattern) {
    int end = start + pattern.length;
    if (end >= body.length) { // the pattern and a tag-terminating byte after it
      return false;
    }
    for (int i = 0; i < pattern.length; i++) {
      byte b = body[start + i];
      byte p = pattern[i];
      // the patterns' letters match either case; their other bytes match exactly
      if (b != p && !(p >= 'A' && p <= 'Z' && b == p + ('a' - 'A'))) {
        return false;
      }
    }
    return body[end] == ' ' || body[end] == '>';
  }

  private static boolean isWhitespace(byte b) {
    return b == '\t' || b == '\n' || b == '\f' || b == '\r' || b == ' ';
  }

  private static byte[][] patterns(String... patterns) {
    byte[][] bytes = new byte[patterns.length][];
    for (int i = 0; i < patterns.length; i++) {
      bytes[i] = patterns[i].getBytes(StandardCharsets.US_ASCII);
    }
    return bytes;
  }
}

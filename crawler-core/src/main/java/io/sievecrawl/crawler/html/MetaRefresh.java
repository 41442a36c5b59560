package io.sievecrawl.crawler.html;

/**
 * The URL of a {@code <meta http-equiv="refresh" content="...">}, read as the HTML standard's "shared declarative
 * refresh steps" read it: a time (digits and dots; without one the tag is ignored), then optionally {@code ;} or
 * {@code ,}, then the URL, with or without {@code url=} before it (any case, spaces around {@code =}), in quotes or
 * not: {@code 5; url='/next'}, {@code 0;URL=/next}, {@code 3 /next} and {@code 0, "next"} all name {@code /next}
 * or {@code next}.
 */
final class MetaRefresh {
  private MetaRefresh() {}

  /** The raw URL (to be resolved against the document), or {@code null} if the content names none. */
  static String url(String content) {
    int n = content.length();
    int pos = skipWhitespace(content, 0);
    int timeStart = pos;
    while (pos < n && isDigit(content.charAt(pos))) {
      pos++;
    }
    if (pos == timeStart && (pos >= n || content.charAt(pos) != '.')) {
      return null; // no time: not a refresh
    }
    while (pos < n && (isDigit(content.charAt(pos)) || content.charAt(pos) == '.')) {
      pos++;
    }
    if (pos < n) {
      char c = content.charAt(pos);
      if (c != ';' && c != ',' && !isWhitespace(c)) {
        return null;
      }
      pos = skipWhitespace(content, pos);
      if (pos < n && (content.charAt(pos) == ';' || content.charAt(pos) == ',')) {
        pos++;
      }
      pos = skipWhitespace(content, pos);
    }
    if (pos >= n) {
      return null; // a refresh of the page itself
    }
    if (content.charAt(pos) == 'u' || content.charAt(pos) == 'U') {
      if (!startsWithUrlEquals(content, pos)) {
        return content.substring(pos); // "u", "ur" or "url" without "=": the rest is the URL
      }
      pos = skipWhitespace(content, content.indexOf('=', pos) + 1);
    }
    if (pos < n && (content.charAt(pos) == '\'' || content.charAt(pos) == '"')) {
      char quote = content.charAt(pos);
      int close = content.indexOf(quote, pos + 1);
      return content.substring(pos + 1, close < 0 ? n : close);
    }
    return content.substring(pos);
  }

  /** Whether {@code url} (any case) and then, after optional whitespace, {@code =} start at {@code pos}. */
  private static boolean startsWithUrlEquals(String s, int pos) {
    return s.regionMatches(true, pos, "url", 0, 3) && skipWhitespace(s, pos + 3) < s.length()
        && s.charAt(skipWhitespace(s, pos + 3)) == '=';
  }

  private static int skipWhitespace(String s, int pos) {
    while (pos < s.length() && isWhitespace(s.charAt(pos))) {
      pos++;
    }
    return pos;
  }

  /** ASCII whitespace as the HTML standard defines it. */
  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}

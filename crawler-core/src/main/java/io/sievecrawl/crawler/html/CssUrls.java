package io.sievecrawl.crawler.html;

import java.util.List;

/**
 * The URLs a style sheet refers to, as written: {@code url(...)} (quoted or not, {@code src: url(font.woff2)},
 * {@code background: url("bg.png")}), the target of {@code @import} ({@code @import "a.css"},
 * {@code @import url(a.css) screen}), and the strings of {@code image-set()}. Comments are skipped, and so is the text
 * of other strings ({@code content: "url(x)"} names no URL). CSS escapes in a URL are decoded; a reference to a
 * fragment of the sheet itself ({@code url(#clip)}, an SVG filter) is left out.
 *
 * <p>For a style sheet (or a {@code <style>} block, or a {@code style} attribute); the references are resolved by the
 * caller, against the sheet's URL.
 */
public final class CssUrls {
  /*
   * Not a full CSS tokenizer: enough of CSS Syntax Level 3 to tell where URLs are. A comment runs to the first "*"
   * + "/"; a string to its closing quote or an unescaped newline (a bad string, which ends there); "url(" is
   * recognized only where an identifier starts (not in "myurl("), case-insensitively, as the function token is.
   */
  private final String css;
  private final List<String> found;
  private final int max;
  private int at;

  private CssUrls(String css, List<String> found, int max) {
    this.css = css;
    this.found = found;
    this.max = max;
  }

  /**
   * Adds the URLs {@code css} refers to, in order, to {@code found}, until it holds {@code max}; returns how many
   * more there were past that.
   */
  public static int scan(String css, List<String> found, int max) {
    CssUrls scanner = new CssUrls(css, found, max);
    return scanner.scan();
  }

  private int scan() {
    int over = 0;
    boolean importTarget = false; // just after @import: its string is a URL
    int imageSetDepth = -1; // the parenthesis depth of an image-set(), whose strings are URLs; -1 outside one
    int depth = 0;
    int n = css.length();
    while (at < n) {
      char c = css.charAt(at);
      if (c == '/' && at + 1 < n && css.charAt(at + 1) == '*') {
        int end = css.indexOf("*/", at + 2);
        at = end < 0 ? n : end + 2;
      } else if (c == '"' || c == '\'') {
        String string = string(c);
        if (importTarget || imageSetDepth >= 0 && depth == imageSetDepth + 1) {
          over += add(string);
        }
        importTarget = false;
      } else if (c == '@' && css.regionMatches(true, at + 1, "import", 0, 6)) {
        at += 7;
        importTarget = true;
      } else if ((c == 'u' || c == 'U') && startsIdentifier() && css.regionMatches(true, at, "url(", 0, 4)) {
        at += 4;
        over += add(urlToken());
        importTarget = false;
      } else if (startsIdentifier() && functionAt("image-set(") || startsIdentifier()
          && functionAt("-webkit-image-set(")) {
        at = css.indexOf('(', at) + 1;
        depth++;
        imageSetDepth = depth - 1;
      } else {
        if (c == '(') {
          depth++;
        } else if (c == ')') {
          depth = Math.max(0, depth - 1);
          if (depth == imageSetDepth) {
            imageSetDepth = -1;
          }
        } else if (c == ';' || c == '{' || c == '}') {
          importTarget = false;
        }
        at++;
      }
    }
    return over;
  }

  private boolean functionAt(String name) {
    return css.regionMatches(true, at, name, 0, name.length());
  }

  /** Whether the character at {@code at} is not the middle of an identifier ({@code myurl(} is no url). */
  private boolean startsIdentifier() {
    if (at == 0) {
      return true;
    }
    char before = css.charAt(at - 1);
    return !(Character.isLetterOrDigit(before) || before == '-' || before == '_' || before == '\\');
  }

  /** Adds a URL unless it is empty or names a fragment of the sheet itself; 1 if it was over the cap, else 0. */
  private int add(String url) {
    if (url == null) {
      return 0;
    }
    String trimmed = url.strip();
    if (trimmed.isEmpty() || trimmed.startsWith("#")) {
      return 0;
    }
    if (found.size() >= max) {
      return 1;
    }
    found.add(trimmed);
    return 0;
  }

  /** The string opened by {@code quote} at {@code at}, escapes decoded; {@code at} moves past it. */
  private String string(char quote) {
    StringBuilder value = new StringBuilder();
    at++;
    while (at < css.length()) {
      char c = css.charAt(at);
      if (c == quote) {
        at++;
        return value.toString();
      }
      if (c == '\n') {
        return null; // a bad string: it ends at the newline, and names nothing
      }
      if (c == '\\') {
        escape(value, true);
      } else {
        value.append(c);
        at++;
      }
    }
    return value.toString();
  }

  /**
   * The argument of {@code url(}, {@code at} just past the parenthesis: a quoted string (then {@code )}) or an
   * unquoted URL up to {@code )}; {@code at} moves past the closing parenthesis.
   */
  private String urlToken() {
    int n = css.length();
    while (at < n && isSpace(css.charAt(at))) {
      at++;
    }
    if (at < n && (css.charAt(at) == '"' || css.charAt(at) == '\'')) {
      String value = string(css.charAt(at));
      int close = css.indexOf(')', at);
      at = close < 0 ? n : close + 1;
      return value;
    }
    StringBuilder value = new StringBuilder();
    while (at < n) {
      char c = css.charAt(at);
      if (c == ')') {
        at++;
        return value.toString();
      }
      if (c == '\\') {
        escape(value, false);
      } else {
        value.append(c);
        at++;
      }
    }
    return value.toString();
  }

  /** Decodes the escape at {@code at} (a backslash) into {@code value}; {@code at} moves past it. */
  private void escape(StringBuilder value, boolean inString) {
    int n = css.length();
    at++;
    if (at >= n) {
      return;
    }
    char c = css.charAt(at);
    if (c == '\n' && inString) {
      at++; // an escaped newline continues a string
      return;
    }
    int hex = 0;
    int digits = 0;
    while (digits < 6 && at < n && Character.digit(css.charAt(at), 16) >= 0) {
      hex = hex * 16 + Character.digit(css.charAt(at), 16);
      digits++;
      at++;
    }
    if (digits == 0) {
      value.append(c);
      at++;
      return;
    }
    if (at < n && isSpace(css.charAt(at))) {
      at++; // one white space ends a hex escape
    }
    value.appendCodePoint(hex == 0 || hex > 0x10FFFF || (hex >= 0xD800 && hex <= 0xDFFF) ? 0xFFFD : hex);
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
  }
}

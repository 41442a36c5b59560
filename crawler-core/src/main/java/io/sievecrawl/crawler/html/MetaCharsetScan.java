package io.sievecrawl.crawler.html;

import io.sievecrawl.crawler.encoding.WebEncoding;
import java.util.HashSet;
import java.util.Set;

/**
 * Finds the encoding a page's {@code <meta charset>} or {@code <meta http-equiv="Content-Type" content="...;
 * charset=...">} declares, where Chromium looks for one: anywhere in the head, however long (after a long script
 * or title, after hundreds of links), and past the head only within the first 1,024 bytes. The head ends at the
 * first tag other than those a head holds ({@code script}, {@code noscript}, {@code style}, {@code link},
 * {@code meta}, {@code object}, {@code title}, {@code base}, and the start tags of {@code html} and {@code head}).
 * A declaration of an unknown encoding is passed over; one in a comment, in another tag's attribute, or in the text
 * of a script, style or title is no declaration.
 */
final class MetaCharsetScan {
  /*
   * Chromium's HTMLMetaCharsetParser runs its HTML tokenizer over the bytes read as Latin-1 and, after each token,
   * stops once it has left the head and consumed 1,024 characters. The HTML standard's prescan reads only the first
   * 1,024 bytes; Firefox follows it. This scan is a small tokenizer with the same effect on where a declaration
   * counts: tags with their attributes, comments (including "<!-->"), bogus comments ("<!...>", "<?...>"), and the
   * raw text of the elements whose end tag alone ends them. A script's text ends at its first </script>, where
   * HTML's double-escaped script data ("<!--<script>") would run on: the same simplification HtmlElements makes.
   */
  static final int BYTES_PAST_THE_HEAD = 1024;

  private final byte[] bytes;
  private final int end;
  private int pos;
  private String name; // of the attribute last read
  private String value;

  private MetaCharsetScan(byte[] bytes, int from) {
    this.bytes = bytes;
    this.pos = from;
    this.end = bytes.length;
  }

  /** The encoding the page {@code bytes[from, ...)} declares in a meta tag, or {@code null}. */
  static WebEncoding scan(byte[] bytes, int from) {
    return new MetaCharsetScan(bytes, from).run();
  }

  private WebEncoding run() {
    int start = pos;
    boolean inHead = true;
    while (pos < end) {
      if (bytes[pos] != '<') {
        int lt = indexOf('<', pos);
        pos = lt < 0 ? end : lt; // a run of text: no tag, so the head goes on
      } else if (pos + 1 < end && isLetter(bytes[pos + 1])) {
        pos++;
        String tag = tagName();
        if (tag.equals("meta")) {
          WebEncoding declared = metaAttributes();
          if (declared != null) {
            return declared;
          }
        } else {
          skipAttributes();
        }
        pos++; // the '>'
        inHead &= isHeadContent(tag) || tag.equals("html") || tag.equals("head");
        skipText(tag);
      } else if (pos + 2 < end && bytes[pos + 1] == '/' && isLetter(bytes[pos + 2])) {
        pos += 2;
        inHead &= isHeadContent(tagName()); // an end tag: </head> and </html> end the head too
        skipAttributes();
        pos++;
      } else if (startsWith("<!--")) {
        skipComment();
      } else if (pos + 1 < end && (bytes[pos + 1] == '!' || bytes[pos + 1] == '?' || bytes[pos + 1] == '/')) {
        int gt = indexOf('>', pos + 2); // a doctype, a bogus comment, or "</>"
        pos = gt < 0 ? end : gt + 1;
      } else {
        pos++; // a '<' that opens nothing
      }
      if (!inHead && pos - start >= BYTES_PAST_THE_HEAD) {
        return null;
      }
    }
    return null;
  }

  private static boolean isHeadContent(String tag) {
    return switch (tag) {
      case "script", "noscript", "style", "link", "meta", "object", "title", "base" -> true;
      default -> false;
    };
  }

  /** Reads a tag's name from its first letter, lower case, up to white space, '/' or '>'. */
  private String tagName() {
    int from = pos;
    while (pos < end && !isSpace(bytes[pos]) && bytes[pos] != '/' && bytes[pos] != '>') {
      pos++;
    }
    return lowerCase(from, pos);
  }

  /** After a start tag whose content is text (script, style, title, ...), moves past its end tag. */
  private void skipText(String tag) {
    switch (tag) {
      case "script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes" -> {
        while (pos < end) {
          int lt = indexOf('<', pos);
          if (lt < 0 || lt + 2 + tag.length() > end) {
            pos = end;
            return;
          }
          pos = lt + 1;
          if (bytes[pos] == '/' && regionIsIgnoringCase(pos + 1, tag)) {
            int after = pos + 1 + tag.length();
            if (after == end || isSpace(bytes[after]) || bytes[after] == '/' || bytes[after] == '>') {
              pos = lt; // the end tag is read as a tag
              return;
            }
          }
        }
      }
      case "plaintext" -> pos = end; // everything after it is text
      default -> { }
    }
  }

  /** Moves past a comment that starts at pos: "<!-->" and "<!--->" close themselves. */
  private void skipComment() {
    int from = pos + 4;
    if (from < end && bytes[from] == '>') {
      pos = from + 1;
      return;
    }
    if (from + 1 < end && bytes[from] == '-' && bytes[from + 1] == '>') {
      pos = from + 2;
      return;
    }
    for (int i = from; i + 2 < end; i++) {
      if (bytes[i] == '-' && bytes[i + 1] == '-' && (bytes[i + 2] == '>'
          || (bytes[i + 2] == '!' && i + 3 < end && bytes[i + 3] == '>'))) {
        pos = i + (bytes[i + 2] == '>' ? 3 : 4);
        return;
      }
    }
    pos = end;
  }

  private void skipAttributes() {
    while (attribute()) {
      // another tag's attributes are read, so that a '>' inside a quoted value does not end the tag
    }
  }

  /**
   * The encoding a meta tag's attributes declare, or {@code null}, as Chromium reads them: the first of its
   * {@code charset} attribute and a {@code charset=} in its {@code content} counts, the latter only beside
   * {@code http-equiv="content-type"}; of two attributes of one name, the first.
   */
  private WebEncoding metaAttributes() {
    Set<String> seen = new HashSet<>();
    boolean gotPragma = false;
    boolean fromContent = false;
    String charset = null;
    while (attribute()) {
      if (!seen.add(name)) {
        continue;
      }
      if (name.equals("http-equiv")) {
        gotPragma |= value.equals("content-type");
      } else if (charset == null || charset.isEmpty()) {
        if (name.equals("charset")) {
          charset = value;
          fromContent = false;
        } else if (name.equals("content")) {
          String extracted = charsetFromContent(value);
          if (extracted != null) {
            charset = extracted;
            fromContent = true;
          }
        }
      }
    }
    if (charset == null || (fromContent && !gotPragma)) {
      return null;
    }
    return WebEncoding.forLabel(charset);
  }

  /**
   * Reads one attribute into {@link #name} and {@link #value} (both lower case) as HTML's tokenizer does; false at
   * the end of the tag, with pos at its '>' (or the end of the page).
   */
  private boolean attribute() {
    while (pos < end && (isSpace(bytes[pos]) || bytes[pos] == '/')) {
      pos++;
    }
    if (pos >= end || bytes[pos] == '>') {
      return false;
    }
    int nameFrom = pos++; // a first '=' is part of the name
    while (pos < end && !isSpace(bytes[pos]) && bytes[pos] != '/' && bytes[pos] != '>' && bytes[pos] != '=') {
      pos++;
    }
    name = lowerCase(nameFrom, pos);
    while (pos < end && isSpace(bytes[pos])) {
      pos++;
    }
    if (pos >= end || bytes[pos] != '=') {
      value = "";
      return true;
    }
    pos++;
    while (pos < end && isSpace(bytes[pos])) {
      pos++;
    }
    if (pos < end && (bytes[pos] == '"' || bytes[pos] == '\'')) {
      byte quote = bytes[pos++];
      int valueFrom = pos;
      int close = indexOf(quote, pos);
      pos = close < 0 ? end : close;
      value = lowerCase(valueFrom, pos);
      pos = Math.min(end, pos + 1);
    } else {
      int valueFrom = pos;
      while (pos < end && !isSpace(bytes[pos]) && bytes[pos] != '>') {
        pos++;
      }
      value = lowerCase(valueFrom, pos);
    }
    return true;
  }

  /** The charset named in a meta's content ({@code text/html; charset="koi8-r"}), as Chromium extracts it, or null. */
  static String charsetFromContent(String content) {
    int length = content.length();
    int i = 0;
    while (i < length) {
      i = content.indexOf("charset", i);
      if (i < 0) {
        return null;
      }
      i += 7;
      while (i < length && content.charAt(i) <= ' ') {
        i++;
      }
      if (i >= length || content.charAt(i) != '=') {
        continue;
      }
      i++;
      while (i < length && content.charAt(i) <= ' ') {
        i++;
      }
      char quote = i < length && (content.charAt(i) == '"' || content.charAt(i) == '\'') ? content.charAt(i++) : 0;
      if (i >= length) {
        return null;
      }
      int stop = i;
      while (stop < length && (quote != 0 ? content.charAt(stop) != quote : content.charAt(stop) > ' '
          && content.charAt(stop) != '"' && content.charAt(stop) != '\'' && content.charAt(stop) != ';')) {
        stop++;
      }
      return quote != 0 && stop == length ? null : content.substring(i, stop);
    }
    return null;
  }

  private boolean startsWith(String s) {
    return pos + s.length() <= end && regionIs(pos, s);
  }

  private boolean regionIs(int from, String s) {
    for (int i = 0; i < s.length(); i++) {
      if (bytes[from + i] != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private boolean regionIsIgnoringCase(int from, String lowerCase) {
    if (from + lowerCase.length() > end) {
      return false;
    }
    for (int i = 0; i < lowerCase.length(); i++) {
      if (lower(bytes[from + i]) != lowerCase.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private int indexOf(int b, int from) {
    for (int i = from; i < end; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }

  /** The bytes [from, to) as Latin-1 text, ASCII upper case lowered. */
  private String lowerCase(int from, int to) {
    char[] chars = new char[to - from];
    for (int i = from; i < to; i++) {
      chars[i - from] = lower(bytes[i]);
    }
    return new String(chars);
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r';
  }

  private static boolean isLetter(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
  }

  private static char lower(byte b) {
    char c = (char) (b & 0xFF);
    return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
  }
}

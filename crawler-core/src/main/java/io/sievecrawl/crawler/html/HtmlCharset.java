package io.sievecrawl.crawler.html;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CoderResult;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;
import java.util.Set;

/**
 * The character encoding of an HTML page's bytes, decided before parsing as the HTML standard's "encoding sniffing"
 * does: a byte-order mark, else the charset of the Content-Type header, else a {@code <meta charset>} or
 * {@code <meta http-equiv="Content-Type" content="...; charset=...">} found by the standard's prescan, else UTF-8
 * if the bytes are valid UTF-8, else windows-1252 (the usual default of browsers, which read such a page so).
 *
 * <p>The prescan reads the first 5,120 bytes (jsoup's own detection window; the standard asks for at least 1,024).
 * Labels the Encoding Standard maps to windows-1252 ({@code iso-8859-1}, {@code us-ascii}, {@code latin1}, ...) are
 * decoded as windows-1252, as browsers do; a meta tag naming UTF-16 means UTF-8, since the bytes read as ASCII.
 */
final class HtmlCharset {
  static final int PRESCAN_BYTES = 5_120;

  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
  private static final Set<String> WINDOWS_1252_LABELS = Set.of("ansi_x3.4-1968", "ascii", "cp1252", "cp819",
      "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987",
      "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252", "x-user-defined");

  /**
   * How to decode a body: the charset it declares ({@code null} when nothing does), and where the text starts
   * (after a byte-order mark).
   */
  record Decision(Charset declared, int offset) {
    Decoded decode(byte[] body) {
      if (declared != null) {
        return new Decoded(new String(body, offset, body.length - offset, declared), declared);
      }
      String text = new String(body, offset, body.length - offset, StandardCharsets.UTF_8);
      if (text.indexOf('\uFFFD') < 0 || isUtf8(body)) { // validated only when decoding replaced something
        return new Decoded(text, StandardCharsets.UTF_8);
      }
      return new Decoded(new String(body, offset, body.length - offset, WINDOWS_1252), WINDOWS_1252);
    }
  }

  /** A page's text, and the charset it was decoded with: the document's encoding, in which its links' queries go. */
  record Decoded(String text, Charset charset) {}

  private HtmlCharset() {}

  /** @param headerCharset the charset parameter of the Content-Type header, or {@code null} */
  static Decision of(byte[] body, String headerCharset) {
    if (startsWith(body, 0xEF, 0xBB, 0xBF)) {
      return new Decision(StandardCharsets.UTF_8, 3);
    }
    if (startsWith(body, 0xFE, 0xFF)) {
      return new Decision(StandardCharsets.UTF_16BE, 2);
    }
    if (startsWith(body, 0xFF, 0xFE)) {
      return new Decision(StandardCharsets.UTF_16LE, 2);
    }
    Charset charset = forLabel(headerCharset);
    if (charset == null) {
      charset = new Prescan(body, Math.min(body.length, PRESCAN_BYTES)).charset();
    }
    return new Decision(charset, 0);
  }

  /** Whether {@code body} is UTF-8, but for a sequence cut short at its end (a body cut off at the size cap). */
  static boolean isUtf8(byte[] body) {
    CoderResult result = StandardCharsets.UTF_8.newDecoder() // reports malformed input
        .decode(ByteBuffer.wrap(body), CharBuffer.allocate(body.length), false);
    return !result.isError();
  }

  private static boolean startsWith(byte[] body, int... bytes) {
    if (body.length < bytes.length) {
      return false;
    }
    for (int i = 0; i < bytes.length; i++) {
      if ((body[i] & 0xFF) != bytes[i]) {
        return false;
      }
    }
    return true;
  }

  /** The charset a label names, or {@code null} if Java does not know it. */
  static Charset forLabel(String label) {
    if (label == null) {
      return null;
    }
    String name = label.strip().toLowerCase(Locale.ROOT);
    if (name.isEmpty()) {
      return null;
    }
    if (WINDOWS_1252_LABELS.contains(name)) {
      return WINDOWS_1252;
    }
    if (name.equals("utf-8") || name.equals("utf8")) {
      return StandardCharsets.UTF_8;
    }
    try {
      return Charset.forName(name);
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      return null;
    }
  }

  /** The HTML standard's "prescan a byte stream to determine its encoding", over {@code bytes[0, end)}. */
  private static final class Prescan {
    private final byte[] bytes;
    private final int end;
    private int pos;
    private String name;
    private String value;

    Prescan(byte[] bytes, int end) {
      this.bytes = bytes;
      this.end = end;
    }

    Charset charset() {
      while (pos < end) {
        if (matches("<!--")) {
          int close = indexOf("-->", pos + 2); // "<!-->" closes itself
          if (close < 0) {
            return null;
          }
          pos = close + 3;
        } else if (matchesIgnoreCase("<meta") && pos + 5 < end && (isSpace(bytes[pos + 5]) || bytes[pos + 5] == '/')) {
          pos += 6;
          Charset found = meta();
          if (found != null) {
            return found;
          }
        } else if (pos + 1 < end && bytes[pos] == '<' && (isLetter(bytes[pos + 1])
            || (bytes[pos + 1] == '/' && pos + 2 < end && isLetter(bytes[pos + 2])))) {
          while (pos < end && !isSpace(bytes[pos]) && bytes[pos] != '>') {
            pos++;
          }
          while (attribute()) {
            // other tags' attributes are skipped, so that a '>' inside a quoted value does not end the tag
          }
          pos++;
        } else if (matches("<!") || matches("</") || matches("<?")) {
          int close = indexOf(">", pos + 2);
          if (close < 0) {
            return null;
          }
          pos = close + 1;
        } else {
          pos++;
        }
      }
      return null;
    }

    /** The attributes of a meta tag, from after its name; the charset it declares, or {@code null}. */
    private Charset meta() {
      Set<String> seen = new java.util.HashSet<>();
      boolean gotPragma = false;
      Boolean needPragma = null;
      Charset charset = null;
      while (attribute()) {
        if (!seen.add(name)) {
          continue;
        }
        switch (name) {
          case "http-equiv" -> gotPragma |= value.equals("content-type");
          case "content" -> {
            if (charset == null) {
              Charset fromContent = forLabel(charsetFromContent(value));
              if (fromContent != null) {
                charset = fromContent;
                needPragma = true;
              }
            }
          }
          case "charset" -> {
            charset = forLabel(value);
            needPragma = false;
          }
          default -> { }
        }
      }
      if (needPragma == null || (needPragma && !gotPragma) || charset == null) {
        return null;
      }
      String canonical = charset.name();
      return canonical.startsWith("UTF-16") ? StandardCharsets.UTF_8 : charset;
    }

    /** "Get an attribute": reads one into {@link #name} and {@link #value}; false at the end of the tag. */
    private boolean attribute() {
      while (pos < end && (isSpace(bytes[pos]) || bytes[pos] == '/')) {
        pos++;
      }
      if (pos >= end || bytes[pos] == '>') {
        return false;
      }
      StringBuilder n = new StringBuilder();
      StringBuilder v = new StringBuilder();
      boolean valueNext = false;
      while (pos < end) {
        byte b = bytes[pos];
        if (b == '=' && n.length() > 0) {
          pos++;
          valueNext = true;
          break;
        } else if (isSpace(b)) {
          while (pos < end && isSpace(bytes[pos])) {
            pos++;
          }
          if (pos < end && bytes[pos] == '=') {
            pos++;
            valueNext = true;
          }
          break;
        } else if (b == '/' || b == '>') {
          break;
        }
        n.append(lower(b));
        pos++;
      }
      if (valueNext) {
        while (pos < end && isSpace(bytes[pos])) {
          pos++;
        }
        if (pos < end && (bytes[pos] == '"' || bytes[pos] == '\'')) {
          byte quote = bytes[pos++];
          while (pos < end && bytes[pos] != quote) {
            v.append(lower(bytes[pos++]));
          }
          pos++;
        } else {
          while (pos < end && !isSpace(bytes[pos]) && bytes[pos] != '>') {
            v.append(lower(bytes[pos++]));
          }
        }
      }
      name = n.toString();
      value = v.toString();
      return true;
    }

    /** The HTML standard's "extract a character encoding from a meta element", or {@code null}. */
    private static String charsetFromContent(String content) {
      int i = 0;
      while (true) {
        i = content.indexOf("charset", i);
        if (i < 0) {
          return null;
        }
        i += 7;
        while (i < content.length() && isSpace((byte) content.charAt(i))) {
          i++;
        }
        if (i < content.length() && content.charAt(i) == '=') {
          break;
        }
      }
      i++;
      while (i < content.length() && isSpace((byte) content.charAt(i))) {
        i++;
      }
      if (i >= content.length()) {
        return null;
      }
      char c = content.charAt(i);
      if (c == '"' || c == '\'') {
        int close = content.indexOf(c, i + 1);
        return close < 0 ? null : content.substring(i + 1, close);
      }
      int stop = i;
      while (stop < content.length() && !isSpace((byte) content.charAt(stop)) && content.charAt(stop) != ';') {
        stop++;
      }
      return content.substring(i, stop);
    }

    private boolean matches(String s) {
      if (pos + s.length() > end) {
        return false;
      }
      for (int i = 0; i < s.length(); i++) {
        if (bytes[pos + i] != s.charAt(i)) {
          return false;
        }
      }
      return true;
    }

    private boolean matchesIgnoreCase(String lowerCase) {
      if (pos + lowerCase.length() > end) {
        return false;
      }
      for (int i = 0; i < lowerCase.length(); i++) {
        if (lower(bytes[pos + i]) != lowerCase.charAt(i)) {
          return false;
        }
      }
      return true;
    }

    private int indexOf(String s, int from) {
      outer:
      for (int i = from; i + s.length() <= end; i++) {
        for (int j = 0; j < s.length(); j++) {
          if (bytes[i + j] != s.charAt(j)) {
            continue outer;
          }
        }
        return i;
      }
      return -1;
    }

    private static boolean isSpace(byte b) {
      return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r';
    }

    private static boolean isLetter(byte b) {
      return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
    }

    /** The byte as a char, ASCII upper case lowered; bytes over 0x7F become chars 0x80 to 0xFF. */
    private static char lower(byte b) {
      char c = (char) (b & 0xFF);
      return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }
  }
}

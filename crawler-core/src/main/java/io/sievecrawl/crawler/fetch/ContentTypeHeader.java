package io.sievecrawl.crawler.fetch;

import java.util.Locale;

/**
 * A Content-Type header read as browsers read it: the media type before the first ';', whitespace around it and
 * around each parameter allowed (RFC 9110 section 8.3.1), and the charset parameter if one has a value. OkHttp's own
 * parser gives up on a whole header for one odd parameter ({@code text/html ; charset=utf-8},
 * {@code text/html; charset=}), and a page that is not known to be HTML is not parsed for links.
 *
 * @param mediaType {@code type/subtype} in lower case, or {@code null} when the header has none
 * @param charset the charset parameter's value, unquoted, or {@code null}
 */
record ContentTypeHeader(String mediaType, String charset) {
  static final ContentTypeHeader NONE = new ContentTypeHeader(null, null);

  static ContentTypeHeader parse(String header) {
    if (header == null) {
      return NONE;
    }
    int semicolon = header.indexOf(';');
    String type = (semicolon < 0 ? header : header.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    int slash = type.indexOf('/');
    if (slash <= 0 || slash == type.length() - 1 || type.indexOf('/', slash + 1) >= 0 || hasWhitespace(type)) {
      type = null;
    }
    String charset = null;
    while (semicolon >= 0 && charset == null) {
      int next = header.indexOf(';', semicolon + 1);
      String parameter = (next < 0 ? header.substring(semicolon + 1) : header.substring(semicolon + 1, next)).strip();
      int equals = parameter.indexOf('=');
      if (equals > 0 && parameter.substring(0, equals).strip().equalsIgnoreCase("charset")) {
        String value = parameter.substring(equals + 1).strip();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1).strip();
        }
        charset = value.isEmpty() ? null : value;
      }
      semicolon = next;
    }
    return new ContentTypeHeader(type, charset);
  }

  private static boolean hasWhitespace(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isWhitespace(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }
}

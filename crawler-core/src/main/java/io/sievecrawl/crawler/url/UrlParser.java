package io.sievecrawl.crawler.url;

import java.util.Locale;

/**
 * The WHATWG URL standard's basic URL parser for the special schemes the crawler fetches, http and https: it
 * splits a URL, or a reference against a base, into the parts a browser would read, so that a page's links lead
 * where they lead in a browser. The crawler's canonical form is made of those parts afterwards
 * ({@link UrlNormalizer}).
 *
 * <p>As the standard does: leading and trailing C0 controls and spaces are trimmed and every tab and newline
 * removed; a lone surrogate is U+FFFD; a backslash is a slash; any run of slashes after the scheme, or at the start
 * of a reference, leads to the host ({@code ///example.org/x}, {@code https:example.org} against an http base); a
 * reference with the base's scheme and no {@code //} is relative ({@code http:g}); user info and the fragment are
 * dropped; a port may have leading zeros; {@code .}, {@code ..} and their {@code %2e} spellings are resolved.
 * The parts are not yet percent-encoded, and the host is as written (see {@link Hosts}).
 */
final class UrlParser {
  private UrlParser() {}

  /**
   * The parts of an http(s) URL.
   *
   * @param scheme {@link Url#HTTP} or {@link Url#HTTPS}
   * @param host the host as written: not empty, an IPv6 literal with its brackets
   * @param port the port, or -1 where the URL names none
   * @param path the path, starting with {@code /}, without dot segments
   * @param query the query without its {@code ?}, or null
   */
  record Parts(String scheme, String host, int port, String path, String query) {}

  /** The parts of {@code input} resolved against {@code base}, which may be null for an absolute URL. */
  static Parts parse(String input, Parts base) throws InvalidUrlException {
    String s = clean(input);
    String scheme = schemeOf(s);
    if (scheme == null) {
      if (base == null) {
        throw new InvalidUrlException("not an absolute URL (no scheme)");
      }
      return relative(s, 0, base);
    }
    int afterScheme = scheme.length() + 1;
    scheme = switch (scheme.toLowerCase(Locale.ROOT)) {
      case "http" -> Url.HTTP;
      case "https" -> Url.HTTPS;
      default -> throw new InvalidUrlException("unsupported scheme '" + scheme.toLowerCase(Locale.ROOT) + "'");
    };
    if (base != null && scheme == base.scheme) {
      return relative(s, afterScheme, base); // "http:g" against an http base is relative; "http://g" is not
    }
    return authority(s, skipSlashes(s, afterScheme), scheme);
  }

  /** The input trimmed of C0 controls and spaces, without tabs and newlines, lone surrogates made U+FFFD. */
  private static String clean(String input) {
    int start = 0;
    int end = input.length();
    while (start < end && input.charAt(start) <= ' ') {
      start++;
    }
    while (end > start && input.charAt(end - 1) <= ' ') {
      end--;
    }
    boolean clean = true;
    for (int i = start; i < end && clean; i++) {
      char c = input.charAt(i);
      clean = c != '\t' && c != '\n' && c != '\r' && !Character.isSurrogate(c);
    }
    if (clean) {
      return input.substring(start, end);
    }
    StringBuilder out = new StringBuilder(end - start);
    for (int i = start; i < end; i++) {
      char c = input.charAt(i);
      if (c == '\t' || c == '\n' || c == '\r') {
        continue;
      }
      if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(input.charAt(i + 1))) {
        out.append(c).append(input.charAt(++i));
      } else {
        out.append(Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    return out.toString();
  }

  /** The scheme of {@code input}, lower case, or null if it has none (a relative reference). */
  static String scheme(String input) {
    String scheme = schemeOf(clean(input));
    return scheme == null ? null : scheme.toLowerCase(Locale.ROOT);
  }

  /** The scheme of {@code s} as written (a letter, then letters, digits, '+', '-' or '.', then ':'), or null. */
  private static String schemeOf(String s) {
    if (s.isEmpty() || !isAsciiLetter(s.charAt(0))) {
      return null;
    }
    for (int i = 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == ':') {
        return s.substring(0, i);
      }
      if (!(isAsciiLetter(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) {
        return null; // "2024:report.html" or "a b:c" is a relative path
      }
    }
    return null;
  }

  /** The standard's relative state: {@code s} from {@code p} against {@code base}. */
  private static Parts relative(String s, int p, Parts base) throws InvalidUrlException {
    int n = s.length();
    if (p < n && isSlash(s.charAt(p))) {
      if (p + 1 < n && isSlash(s.charAt(p + 1))) {
        return authority(s, skipSlashes(s, p), base.scheme);
      }
      StringBuilder path = new StringBuilder();
      int queryAt = appendPath(s, p + 1, path);
      return new Parts(base.scheme, base.host, base.port, path.toString(), queryOf(s, queryAt));
    }
    if (p == n || s.charAt(p) == '#') {
      return base;
    }
    if (s.charAt(p) == '?') {
      return new Parts(base.scheme, base.host, base.port, base.path, queryOf(s, p));
    }
    StringBuilder path = new StringBuilder(base.path.length() + n - p).append(base.path);
    shorten(path);
    int queryAt = appendPath(s, p, path);
    return new Parts(base.scheme, base.host, base.port, path.toString(), queryOf(s, queryAt));
  }

  /** The authority from {@code p} (past the slashes), then the path and query. */
  private static Parts authority(String s, int p, String scheme) throws InvalidUrlException {
    int end = p;
    while (end < s.length() && !isSlash(s.charAt(end)) && s.charAt(end) != '?' && s.charAt(end) != '#') {
      end++;
    }
    int hostStart = s.lastIndexOf('@', end - 1) + 1; // user info is dropped
    if (hostStart <= p) {
      hostStart = p;
    }
    int portColon = -1;
    boolean inBrackets = false;
    for (int i = hostStart; i < end && portColon < 0; i++) {
      char c = s.charAt(i);
      if (c == '[') {
        inBrackets = true;
      } else if (c == ']') {
        inBrackets = false;
      } else if (c == ':' && !inBrackets) {
        portColon = i;
      }
    }
    String host = s.substring(hostStart, portColon < 0 ? end : portColon);
    if (host.isEmpty()) {
      throw new InvalidUrlException("no host");
    }
    int port = portColon < 0 ? -1 : port(s, portColon + 1, end);
    StringBuilder path = new StringBuilder();
    int queryAt = appendPath(s, end < s.length() && isSlash(s.charAt(end)) ? end + 1 : end, path);
    return new Parts(scheme, host, port, path.toString(), queryOf(s, queryAt));
  }

  /** The port in {@code s[from, to)}: -1 if empty, otherwise digits (leading zeros allowed) up to 65535. */
  private static int port(String s, int from, int to) throws InvalidUrlException {
    int value = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        throw new InvalidUrlException("invalid port '" + s.substring(from, to) + "'");
      }
      value = value * 10 + (c - '0');
      if (value > 65535) {
        throw new InvalidUrlException("invalid port '" + s.substring(from, to) + "'");
      }
    }
    return from == to ? -1 : value;
  }

  /**
   * The standard's path state from {@code p} (past the slash that starts the path, if any) up to the query or
   * fragment, appending to {@code path} a {@code /} and a segment per segment; returns where it stopped.
   */
  private static int appendPath(String s, int p, StringBuilder path) {
    int n = s.length();
    int segmentStart = p;
    for (int i = p; ; i++) {
      char c = i < n ? s.charAt(i) : '#';
      boolean slash = isSlash(c);
      if (slash || c == '?' || c == '#') {
        int dots = dots(s, segmentStart, i);
        if (dots == 2) {
          shorten(path);
        }
        if (dots == 0) {
          path.append('/').append(s, segmentStart, i);
        } else if (!slash) {
          path.append('/'); // "a/." and "a/.." end in a slash
        }
        if (!slash) {
          return i;
        }
        segmentStart = i + 1;
      }
    }
  }

  /** 1 for a single-dot segment ({@code .}, {@code %2e}), 2 for a double-dot one, otherwise 0. */
  private static int dots(String s, int from, int to) {
    int dots = 0;
    for (int i = from; i < to; dots++) {
      if (s.charAt(i) == '.') {
        i++;
      } else if (s.regionMatches(true, i, "%2e", 0, 3) && i + 3 <= to) {
        i += 3;
      } else {
        return 0;
      }
    }
    return dots <= 2 ? dots : 0;
  }

  /** Removes the last segment of a path, if it has one. */
  private static void shorten(StringBuilder path) {
    path.setLength(Math.max(0, path.lastIndexOf("/")));
  }

  /** The query if {@code s} has one at {@code p} (a '?'), up to the fragment; otherwise null. */
  private static String queryOf(String s, int p) {
    if (p >= s.length() || s.charAt(p) != '?') {
      return null;
    }
    int fragment = s.indexOf('#', p + 1);
    return s.substring(p + 1, fragment < 0 ? s.length() : fragment);
  }

  private static int skipSlashes(String s, int p) {
    while (p < s.length() && isSlash(s.charAt(p))) {
      p++;
    }
    return p;
  }

  private static boolean isSlash(char c) {
    return c == '/' || c == '\\';
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
}

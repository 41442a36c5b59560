package io.sievecrawl.crawler.url;

/**
 * Removes the dot segments of a path ({@code .} and {@code ..}) as RFC 3986 section 5.2.4 does: the last step of
 * resolving a reference, and of the canonical form of a path.
 *
 * <p>A page's {@link ReferenceResolver} merges a plain reference into its base and removes the dot segments straight
 * into the URL's buffer, after the origin it already holds: hence the form that writes into a {@code char[]}.
 */
final class DotSegments {
  private DotSegments() {}

  /** RFC 3986 section 5.2.4. */
  static String remove(String path) {
    if (!hasDotSegment(path)) {
      return path;
    }
    char[] out = new char[path.length()];
    return new String(out, 0, remove(path, 0, path.length(), out, 0));
  }

  /**
   * RFC 3986 section 5.2.4 on {@code path[from, to)}: reads the input once and writes the output into {@code out}
   * from {@code o} (it is never longer than the input) instead of shifting buffers; returns the end of the output.
   */
  static int remove(CharSequence path, int from, int to, char[] out, int o) {
    int outStart = o;
    int i = from;
    while (i < to) {
      int rest = to - i;
      char c0 = path.charAt(i);
      char c1 = rest > 1 ? path.charAt(i + 1) : 0;
      char c2 = rest > 2 ? path.charAt(i + 2) : 0;
      char c3 = rest > 3 ? path.charAt(i + 3) : 0;
      if (c0 == '.' && c1 == '.' && c2 == '/') { // A: "../"
        i += 3;
      } else if (c0 == '.' && c1 == '/') { // A: "./"
        i += 2;
      } else if (c0 == '/' && c1 == '.' && c2 == '/') { // B: "/./" becomes "/"
        i += 2;
      } else if (c0 == '/' && c1 == '.' && rest == 2) { // B: a final "/." becomes "/"
        out[o++] = '/';
        i = to;
      } else if (c0 == '/' && c1 == '.' && c2 == '.' && (rest == 3 || c3 == '/')) { // C: "/../" or a final "/.."
        o = lastSlash(out, outStart, o);
        if (rest == 3) {
          out[o++] = '/';
          i = to;
        } else {
          i += 3;
        }
      } else if ((c0 == '.' && rest == 1) || (c0 == '.' && c1 == '.' && rest == 2)) { // D: "." or ".." alone
        i = to;
      } else { // E: the first segment, with its leading slash, moves to the output
        do {
          out[o++] = path.charAt(i++);
        } while (i < to && path.charAt(i) != '/');
      }
    }
    return o;
  }

  /** Where the output's last segment starts (its slash), or {@code start}: RFC 3986's "remove the last segment". */
  private static int lastSlash(char[] out, int start, int end) {
    for (int i = end - 1; i >= start; i--) {
      if (out[i] == '/') {
        return i;
      }
    }
    return start;
  }

  private static boolean hasDotSegment(String path) {
    int n = path.length();
    for (int i = path.indexOf('.'); i >= 0; i = path.indexOf('.', i + 1)) {
      boolean startsSegment = i == 0 || path.charAt(i - 1) == '/';
      if (startsSegment) {
        int after = i + 1 < n && path.charAt(i + 1) == '.' ? i + 2 : i + 1;
        if (after == n || path.charAt(after) == '/') {
          return true;
        }
      }
    }
    return false;
  }
}

package io.sievecrawl.crawler.url;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link DotSegments#remove} against a literal transcription of RFC 3986 section 5.2.4. */
class DotSegmentsTest {

  @Test
  void agreesWithTheRfcOnEveryPathOfUpToNineCharactersFromSlashDotAndA() {
    String alphabet = "/.a";
    int checked = 0;
    for (int length = 0; length <= 9; length++) {
      int combinations = (int) Math.pow(alphabet.length(), length);
      for (int n = 0; n < combinations; n++) {
        StringBuilder path = new StringBuilder();
        for (int i = 0, rest = n; i < length; i++, rest /= alphabet.length()) {
          path.append(alphabet.charAt(rest % alphabet.length()));
        }
        String p = path.toString();
        assertEquals(rfc(p), DotSegments.remove(p), p);
        checked++;
      }
    }
    assertEquals(29_524, checked);
  }

  @Test
  void writesAfterWhatTheOutputBufferAlreadyHolds() {
    char[] out = new char[64];
    "http://a".getChars(0, 8, out, 0);
    int end = DotSegments.remove("/../../b/./c/..", 0, 15, out, 8);
    assertEquals("http://a/b/", new String(out, 0, end));
  }

  /** RFC 3986 section 5.2.4, step by step with string buffers. */
  private static String rfc(String path) {
    StringBuilder in = new StringBuilder(path);
    StringBuilder out = new StringBuilder();
    while (in.length() > 0) {
      String s = in.toString();
      if (s.startsWith("../")) {
        in.delete(0, 3);
      } else if (s.startsWith("./")) {
        in.delete(0, 2);
      } else if (s.startsWith("/./")) {
        in.delete(0, 2);
      } else if (s.equals("/.")) {
        in.replace(0, 2, "/");
      } else if (s.startsWith("/../")) {
        in.delete(0, 3);
        out.setLength(Math.max(out.lastIndexOf("/"), 0));
      } else if (s.equals("/..")) {
        in.replace(0, 3, "/");
        out.setLength(Math.max(out.lastIndexOf("/"), 0));
      } else if (s.equals(".") || s.equals("..")) {
        in.setLength(0);
      } else {
        int next = s.indexOf('/', 1);
        int end = next < 0 ? s.length() : next;
        out.append(s, 0, end);
        in.delete(0, end);
      }
    }
    return out.toString();
  }
}

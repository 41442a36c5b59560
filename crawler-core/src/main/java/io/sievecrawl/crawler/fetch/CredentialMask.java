package io.sievecrawl.crawler.fetch;

/**
 * Masks the credentials of a request header for an archive: WARC files and WACZ packages are made to be shared, and
 * a request record would otherwise hand on the token or session a crawl was given.
 *
 * <p>What stays is what tells a reader how the request was made without letting anyone repeat it:
 * {@code Authorization} keeps its scheme ({@code Basic <hidden>}, {@code Bearer <hidden>}: which kind of credential
 * was sent), {@code Cookie} its cookie names ({@code session=<hidden>; lang=<hidden>}: which cookies were sent, as a
 * consent cookie can change a page), every value becomes {@value #HIDDEN}. A value is never partly kept (a prefix
 * of a token narrows it down). Other fields are returned as they are.
 */
final class CredentialMask {
  /** What a masked value reads as, as in the log's settings. */
  static final String HIDDEN = "<hidden>";

  private CredentialMask() {}

  /** {@code value} as a request record holds it: masked when {@code name} carries credentials. */
  static String value(String name, String value) {
    if (name.equalsIgnoreCase("Authorization")) {
      return authorization(value);
    }
    if (name.equalsIgnoreCase("Cookie")) {
      return cookie(value);
    }
    return value;
  }

  /** {@code SCHEME <hidden>}, the scheme being a token (RFC 9110 auth-scheme); {@code <hidden>} for anything else. */
  private static String authorization(String value) {
    String trimmed = value.strip();
    int space = trimmed.indexOf(' ');
    String scheme = space < 0 ? trimmed : trimmed.substring(0, space);
    boolean token = !scheme.isEmpty() && scheme.length() <= 32 && scheme.chars().allMatch(CredentialMask::isTchar);
    // A value of one token is the credential itself (a bare API key), not a scheme: hidden whole.
    return token && space > 0 ? scheme + " " + HIDDEN : HIDDEN;
  }

  /** {@code NAME=<hidden>} for each cookie pair, joined as sent with {@code "; "}; a pair without a name hidden whole. */
  private static String cookie(String value) {
    StringBuilder masked = new StringBuilder(value.length());
    for (String pair : value.split(";")) {
      String p = pair.strip();
      if (p.isEmpty()) {
        continue;
      }
      if (!masked.isEmpty()) {
        masked.append("; ");
      }
      int eq = p.indexOf('=');
      String name = eq < 0 ? "" : p.substring(0, eq).strip();
      masked.append(name.isEmpty() || !name.chars().allMatch(CredentialMask::isTchar) ? HIDDEN : name + "=" + HIDDEN);
    }
    return masked.isEmpty() ? HIDDEN : masked.toString();
  }

  /** RFC 9110 tchar: the characters of a token. */
  private static boolean isTchar(int c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
        || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }
}

package io.sievecrawl.config;

/** The rules of text settings beyond printable ASCII, each throwing {@link IllegalArgumentException} with its rule. */
final class TextRules {
  private TextRules() {}

  /** warc.prefix: a part of a file name. */
  static void fileNamePart(String s) {
    if (!s.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("must be letters, digits, '.', '_' and '-'");
    }
  }

  /** fetch.proxy: empty, {@code none}, or an HTTP proxy URL without credentials. */
  static void proxy(String s) {
    if (s.isEmpty() || s.equalsIgnoreCase("none")) {
      return;
    }
    ProxyUrl proxy;
    try {
      proxy = ProxyUrl.parse(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("must be empty, none or " + e.getMessage());
    }
    if (proxy.user() != null) {
      throw new IllegalArgumentException("must not hold a user or password, as settings are recorded in the"
          + " crawl directory and WARC files: give them in the https_proxy or http_proxy environment variable");
    }
  }

  /** robots.agent-name: empty, or a product token (RFC 9309). */
  static void productToken(String s) {
    if (!s.isEmpty() && !s.matches("[A-Za-z_-]+")) {
      throw new IllegalArgumentException("must be a product token of letters, '_' and '-' (RFC 9309)");
    }
  }
}

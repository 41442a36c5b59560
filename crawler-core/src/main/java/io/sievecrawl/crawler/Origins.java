package io.sievecrawl.crawler;

/** The origin of a normalized URL: scheme, host and port, as RFC 6454 and RFC 9309 (robots.txt) key them. */
final class Origins {
  private Origins() {}

  /** {@code https://example.com:8443} of {@code https://example.com:8443/a?b}; the URL must be normalized. */
  static String of(String normalizedUrl) {
    int slash = normalizedUrl.indexOf('/', normalizedUrl.indexOf("://") + 3);
    return slash < 0 ? normalizedUrl : normalizedUrl.substring(0, slash);
  }
}

package io.sievecrawl.crawler.url;

/** A URL that cannot be crawled: unparseable, not http(s), without a host, or over the length cap. */
public final class InvalidUrlException extends Exception {
  private static final long serialVersionUID = 1L;

  InvalidUrlException(String message) {
    super(message);
  }
}

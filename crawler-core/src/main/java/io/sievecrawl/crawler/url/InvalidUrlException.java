package io.sievecrawl.crawler.url;

/** A URL that cannot be crawled: unparseable, not http(s), without a host, or over the length cap. */
public final class InvalidUrlException extends Exception {
  private static final long serialVersionUID = 1L;
  private final boolean tooLong;

  InvalidUrlException(String message) {
    this(message, false);
  }

  private InvalidUrlException(String message, boolean tooLong) {
    super(message);
    this.tooLong = tooLong;
  }

  /** A URL valid but for its length: a spider-trap guard refused it, not its syntax. */
  static InvalidUrlException tooLong(int maxLength) {
    return new InvalidUrlException(String.format(java.util.Locale.ROOT, "longer than %,d characters", maxLength), true);
  }

  /** Whether the URL was refused only for being longer than the cap. */
  public boolean isTooLong() {
    return tooLong;
  }
}

package io.sievecrawl.crawler.home;

/** A crawl shared through Redis cannot be started, joined or removed; the message says why in one line. */
public final class SharedHomeException extends CrawlHomeException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, for the exit code. */
  public enum Reason {
    /** No crawl of that name (yet). */
    NO_SUCH_CRAWL,
    /** One of that name exists with other settings, or the key is not a crawl's. */
    MISMATCH,
    /** Redis unreachable or refusing us, the crawl finished, in use, or lost. */
    UNAVAILABLE
  }

  private final Reason reason;

  public SharedHomeException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}

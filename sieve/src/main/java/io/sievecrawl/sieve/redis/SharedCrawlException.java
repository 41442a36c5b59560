package io.sievecrawl.sieve.redis;

import java.io.IOException;

/**
 * A shared crawl cannot be used: Redis unreachable or refusing us, no crawl of that name, one with other n or p, one
 * finished already (for a new crawl of its name), one agents still work (to remove it), or one whose data Redis has
 * lost. The message says which, in one line.
 */
public final class SharedCrawlException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, for the exit code. */
  public enum Kind { UNREACHABLE, REFUSED, NO_SUCH_CRAWL, MISMATCH, FINISHED, IN_USE, LOST }

  private final Kind kind;

  public SharedCrawlException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}

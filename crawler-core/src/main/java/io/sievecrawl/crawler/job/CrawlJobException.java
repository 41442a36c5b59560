package io.sievecrawl.crawler.job;

import java.nio.file.Path;

/**
 * A crawl directory that cannot be used: missing, not a crawl directory, of another format version, or damaged.
 * The message names the file and what is wrong.
 */
public final class CrawlJobException extends io.sievecrawl.crawler.home.CrawlHomeException {
  private static final long serialVersionUID = 1L;

  public CrawlJobException(String message) {
    super(message);
  }

  public CrawlJobException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The crawl directory {@code dir} is locked by another process: {@code holder} names it, or is empty. */
  static CrawlJobException inUse(Path dir, String holder) {
    return new CrawlJobException(dir + " is in use by another sievecrawl process" + holder + ": one process per"
        + " crawl directory; wait for it to end, or stop it (Ctrl-C, or kill with its process id)");
  }
}

package io.sievecrawl.crawler.job;

import java.io.IOException;

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
}

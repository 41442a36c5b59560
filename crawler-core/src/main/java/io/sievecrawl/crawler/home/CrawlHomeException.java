package io.sievecrawl.crawler.home;

import java.io.IOException;

/** A crawl's home cannot be used: missing, damaged, of another version, or of another identity. One line. */
public class CrawlHomeException extends IOException {
  private static final long serialVersionUID = 1L;

  public CrawlHomeException(String message) {
    super(message);
  }

  public CrawlHomeException(String message, Throwable cause) {
    super(message, cause);
  }
}

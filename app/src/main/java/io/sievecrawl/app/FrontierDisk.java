package io.sievecrawl.app;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.url.Url;

/**
 * What a queued URL costs on disk, for {@code plan}: a typical task (a 75-character URL found on a page of the
 * same site) encoded as the disk frontier stores it, plus the log record's framing. Measured on a real crawl: 83 bytes
 * per queued URL with 46-character URLs (BoundedHeapIT's site).
 */
final class FrontierDisk {
  static final int TYPICAL_URL_LENGTH = 75;
  private static final int RECORD_FRAMING = 17; // length, CRC, type, sequence number

  private FrontierDisk() {}

  static long bytesPerMillion() {
    String page = "https://www.example.com/docs/reference/section-12/";
    String url = page + "x".repeat(TYPICAL_URL_LENGTH - page.length());
    String referrer = page.substring(0, 24) + "y".repeat(TYPICAL_URL_LENGTH - 24);
    CrawlTask task = new CrawlTask(Url.ofCanonical(url), 3, referrer, 0, 0);
    return (long) (RECORD_FRAMING + CrawlTask.CODEC.encode(task).length) * 1_000_000;
  }
}

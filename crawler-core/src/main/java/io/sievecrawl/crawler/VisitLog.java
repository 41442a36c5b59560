package io.sievecrawl.crawler;

import io.sievecrawl.crawler.result.CrawlResult;
import java.io.IOException;

/**
 * Where a crawl keeps what each visit learned, for the next recrawl: a URL's status, validators and digest. Written
 * before the page is acknowledged, as its record is.
 */
public interface VisitLog {
  /** Keeps nothing: a crawl that will not be repeated (a shared one, a benchmark). */
  VisitLog NONE = new VisitLog() {
    @Override
    public void visited(CrawlTask task, CrawlResult result) {}

    @Override
    public void kept(CrawlTask task) {}
  };

  /** {@code task} was fetched (or failed) and recorded as {@code result}. */
  void visited(CrawlTask task, CrawlResult result) throws IOException;

  /** {@code task}, a recrawl's URL fetched recently enough, is kept as its last visit left it. */
  void kept(CrawlTask task) throws IOException;
}

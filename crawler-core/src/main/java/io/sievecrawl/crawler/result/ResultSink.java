package io.sievecrawl.crawler.result;

import java.io.IOException;

/** Receives one {@link CrawlResult} per fetched URL, from many worker threads at once. */
public interface ResultSink extends AutoCloseable {

  /** Takes one result; called concurrently by workers, so implementations must be thread-safe. */
  void accept(CrawlResult result) throws IOException;

  /** Flushes whatever is buffered. */
  default void flush() throws IOException {}

  @Override
  default void close() throws IOException {}
}

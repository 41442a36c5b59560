package io.sievecrawl.crawler.fetch;

import java.io.IOException;
import java.nio.file.Path;

/** Keeps captured HTTP exchanges: a WARC archive. Called by many fetching threads at once. */
public interface ExchangeRecorder {

  /**
   * Records one exchange, on the thread that read its body, before that fetch returns: a page is recorded before
   * its result is written. The exchange's body is released afterwards.
   *
   * @return how it was stored when it repeats a capture already kept (a revisit record), {@code null} when it was
   *     stored as a capture of its own (or not at all)
   */
  StoredAs record(Exchange exchange) throws IOException;

  /** Where bodies too large for the heap wait while they are read. */
  Path spillDirectory();

  /** The failure to report when a body could not be kept in {@link #spillDirectory()} (a full disk). */
  default IOException failure(IOException cause) {
    return cause;
  }
}

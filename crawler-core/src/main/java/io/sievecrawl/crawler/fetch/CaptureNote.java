package io.sievecrawl.crawler.fetch;

/**
 * Carried by a request as its tag, for the archive's answer to come back to the fetch: how the exchange was stored,
 * set when the response is closed (which records it), read after. One request, one note; written by the thread that
 * closes the response, the fetching thread, and read by it.
 */
final class CaptureNote {
  private StoredAs storedAs;

  void stored(StoredAs as) {
    this.storedAs = as;
  }

  /** As a revisit of an earlier capture, or {@code null}: a capture of its own, or not recorded. */
  StoredAs storedAs() {
    return storedAs;
  }
}

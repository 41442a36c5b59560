package io.sievecrawl.crawler.warc;

import java.io.IOException;
import java.nio.file.Path;

/** WARC files cannot be written (a full disk, a lost permission): the crawl stops, resumable once fixed. */
public final class WarcWriteException extends IOException {
  private final transient Path dir;

  WarcWriteException(Path dir, IOException cause) {
    super("cannot write WARC files in " + dir + ": " + reason(cause), cause);
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }

  private static String reason(IOException e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}

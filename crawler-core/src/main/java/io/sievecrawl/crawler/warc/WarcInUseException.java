package io.sievecrawl.crawler.warc;

import java.io.IOException;

/** Another process is writing WARC files of the same prefix in a directory (it holds the directory's lock). */
public final class WarcInUseException extends IOException {
  WarcInUseException(String message) {
    super(message);
  }
}

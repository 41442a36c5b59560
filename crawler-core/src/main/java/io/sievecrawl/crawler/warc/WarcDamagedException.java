package io.sievecrawl.crawler.warc;

import java.io.IOException;

/** A WARC file is damaged in a way no crash leaves (valid records after the damage): refused, not repaired. */
public final class WarcDamagedException extends IOException {
  WarcDamagedException(String message) {
    super(message);
  }
}

package io.sievecrawl.sieve.disk;

import java.io.IOException;

/**
 * The frontier's directory holds state this build cannot use: a file that is corrupt (not merely cut short by a
 * crash, which is repaired), of another format version, or of another crawl. The message names the file and what
 * is wrong with it.
 */
public final class FrontierCorruptException extends IOException {
  private static final long serialVersionUID = 1L;

  public FrontierCorruptException(String message) {
    super(message);
  }
}

package io.sievecrawl.sieve;

import java.io.IOException;

/** A filter file that cannot be read back: not a filter file, an unknown version, truncated or corrupted. */
public final class FilterFileException extends IOException {
  private static final long serialVersionUID = 1L;

  FilterFileException(String message) {
    super(message);
  }
}

package io.sievecrawl.sieve;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A frontier could not keep its state (a full disk, a lost connection, damaged files): the crawl must stop, and
 * whatever was not acknowledged is done again when it resumes.
 */
public final class FrontierFailure extends UncheckedIOException {
  private static final long serialVersionUID = 1L;

  public FrontierFailure(String message, IOException cause) {
    super(message, cause);
  }
}

package io.sievecrawl.crawler;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

/**
 * The seed URLs of a crawl, read as often as the crawl needs them (once for the scope, once to queue them) without
 * holding them all: a crawl may start from millions.
 */
public interface Seeds {
  /** Receives one seed at a time. */
  @FunctionalInterface
  interface Action {
    void accept(String url) throws IOException;
  }

  /** Receives one URL to queue at a time, with what its last visit learned ({@code null} for a plain seed). */
  @FunctionalInterface
  interface VisitAction {
    void accept(String url, LastVisit last) throws IOException;
  }

  /** Hands every seed, in order, to {@code action}: the URLs whose sites make the crawl's scope. */
  void forEach(Action action) throws IOException;

  /**
   * Hands every URL to queue to {@code action}: the seeds, and for a recrawl first the URLs of the last visits
   * with what each learned. Of URLs given twice, the first is queued.
   */
  default void forEachVisit(VisitAction action) throws IOException {
    forEach(url -> action.accept(url, null));
  }

  /**
   * Whether every URL must be queued before the first fetch: a recrawl's, so that a link found on a page cannot
   * queue a URL before its last visit does (it would lose its validators and be fetched in full).
   */
  default boolean queuedBeforeFetching() {
    return false;
  }

  /** Whether the seeds are normalized already (as a crawl directory's are), so that they need only be split. */
  default boolean normalized() {
    return false;
  }

  /** Seeds held in memory: a few, given on the command line or by a test. */
  static Seeds of(Collection<String> urls) {
    List<String> copy = List.copyOf(urls);
    return action -> {
      for (String url : copy) {
        action.accept(url);
      }
    };
  }

  /** The normalized seeds in a UTF-8 file, one URL per line; blank lines are skipped. */
  static Seeds inFile(Path file) {
    return new Seeds() {
      @Override
      public void forEach(Action action) throws IOException {
        try (BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (!line.isBlank()) {
              action.accept(line);
            }
          }
        }
      }

      @Override
      public boolean normalized() {
        return true;
      }
    };
  }
}

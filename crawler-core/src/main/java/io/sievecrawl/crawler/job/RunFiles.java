package io.sievecrawl.crawler.job;

import io.sievecrawl.crawler.VisitLog;
import io.sievecrawl.crawler.robots.RobotsStore;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The files a run of a directory's crawl appends to while it runs: its generation's visits ({@link VisitFile}) and
 * the robots.txt rules it keeps ({@link RobotsFile}). Opened when a run starts, closed when it ends.
 */
final class RunFiles implements Closeable {
  private final VisitFile visits;
  private final RobotsFile robots; // null when robots.txt is not obeyed

  private RunFiles(VisitFile visits, RobotsFile robots) {
    this.visits = visits;
    this.robots = robots;
  }

  /**
   * Opens the visits file for appending (a torn last line cut off) and, with {@code robotsMemory} above 0, reads the
   * robots.txt rules kept back.
   *
   * @param robotsMemory bytes of rules read back at most; 0 when robots.txt is not obeyed
   */
  static RunFiles open(Path dir, Path visitsFile, long robotsMemory, Clock clock) throws IOException {
    VisitFile visits = VisitFile.open(visitsFile);
    try {
      return new RunFiles(visits, robotsMemory > 0 ? RobotsFile.open(dir, clock, robotsMemory) : null);
    } catch (IOException | RuntimeException e) {
      visits.close();
      throw e;
    }
  }

  VisitLog visits() {
    return visits;
  }

  RobotsStore robots() {
    return robots == null ? RobotsStore.NONE : robots;
  }

  /** Forces the visits to the device (power cuts); the rules are a cache, fetched again when lost. */
  void sync() throws IOException {
    visits.sync();
  }

  @Override
  public void close() throws IOException {
    try {
      visits.close();
    } finally {
      if (robots != null) {
        robots.close();
      }
    }
  }
}

package io.sievecrawl.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells the launcher that this run's class-data archive is worth keeping.
 *
 * <p>The JVM writes the archive when the first run of a command exits, with the classes that run loaded, and never
 * adds to it. A first {@code crawl} that stopped at a wrong argument or at {@code --help} would leave an archive
 * without the crawler's classes for good, and every later crawl would start about 0.25 s slower. So the launcher
 * passes the archive's path in {@code sievecrawl.class-archive} while the archive is being made, the command marks
 * it (a file beside it, ending {@code .ok}) once it has done its work, and the launcher replaces an unmarked archive.
 */
final class ClassArchive {
  private static final String PROPERTY = "sievecrawl.class-archive";

  private ClassArchive() {}

  /** Marks the archive this run will write as one of a run that did its work; a no-op outside the launcher. */
  static void markUseful() {
    String archive = System.getProperty(PROPERTY);
    if (archive == null || archive.isEmpty()) {
      return;
    }
    try {
      Files.deleteIfExists(Path.of(archive + ".ok"));
      Files.createFile(Path.of(archive + ".ok"));
    } catch (IOException | RuntimeException e) {
      // Only start-up time is at stake: the next run makes the archive again.
    }
  }
}

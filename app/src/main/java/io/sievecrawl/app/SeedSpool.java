package io.sievecrawl.app;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * The file a seed file is read into before the crawl starts (it becomes the crawl directory's {@code seeds.txt}). Its
 * name holds the process id, so that one left by a process killed while reading seeds is removed by the next crawl
 * that reads seeds in the same folder, once it has not been written for an hour.
 */
final class SeedSpool {
  static final String PREFIX = ".sievecrawl-seeds-";
  private static final String SUFFIX = ".tmp";
  private static final Duration IDLE = Duration.ofHours(1);

  private SeedSpool() {}

  /**
   * A new spool beside the crawl directory {@code dir}, so that moving it in is a rename, or in the temporary folder
   * for a shared crawl ({@code dir} null) or a directory whose parent does not exist yet.
   *
   * @param clock the wall clock, which says how long ago a leftover spool was last written
   * @throws UserError with {@link ExitCodes#OUTPUT} if it cannot be created
   */
  static Path create(Path dir, Clock clock) {
    Path parent = dir == null ? null : dir.toAbsolutePath().getParent();
    Path temporary = Path.of(System.getProperty("java.io.tmpdir"));
    if (parent != null && Files.isDirectory(parent)) {
      try {
        return createIn(parent, clock);
      } catch (IOException e) {
        // a parent the user may not write (--job /mnt/disk): the temporary folder, then a copy
      }
    }
    try {
      return createIn(temporary, clock);
    } catch (IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write the seeds read to " + temporary + ": " + Errors.reason(e));
    }
  }

  private static Path createIn(Path folder, Clock clock) throws IOException {
    removeLeftovers(folder, clock);
    return Files.createTempFile(folder, PREFIX + ProcessHandle.current().pid() + "-", SUFFIX);
  }

  /**
   * Removes the spools in {@code folder} whose process is gone from this machine and that have not been written for
   * an hour (a folder shared with other machines may hold theirs); a folder that cannot be listed is left as it is.
   */
  static void removeLeftovers(Path folder, Clock clock) {
    long idleSince = clock.millis() - IDLE.toMillis();
    try (DirectoryStream<Path> spools = Files.newDirectoryStream(folder, PREFIX + "*" + SUFFIX)) {
      for (Path spool : spools) {
        long pid = pidOf(spool.getFileName().toString());
        if (pid > 0 && ProcessHandle.of(pid).isEmpty()
            && Files.getLastModifiedTime(spool).toMillis() < idleSince) {
          Files.deleteIfExists(spool);
        }
      }
    } catch (IOException e) {
      // best effort: a leftover only takes space
    }
  }

  /** The process id in a spool's name, or 0 if it has none. */
  private static long pidOf(String name) {
    int start = PREFIX.length();
    int end = name.indexOf('-', start);
    try {
      return end > start ? Long.parseLong(name.substring(start, end)) : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}

package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.BloomSizing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The names of a disk frontier's URL filter checkpoints, {@code filter-SEGMENT-OFFSET-nN-pP.bf}, and the removal of
 * those no checkpoint names.
 *
 * <p>A filter file is renamed into place before the checkpoint file that names it is replaced, and the filter it
 * supersedes is deleted after; a kill between those steps leaves a whole filter file (as large as the filter: 2 GB
 * at n = 1G) that nobody names. Only the filter the checkpoint names is ever read, so any other is deleted when the
 * frontier opens.
 */
final class FilterFiles {
  private static final Logger log = LoggerFactory.getLogger(FilterFiles.class);
  private static final String PREFIX = "filter-";
  private static final String SUFFIX = ".bf";

  private FilterFiles() {}

  /**
   * The name of the filter checkpointed at {@code position}. n and p are in it: a filter rebuilt at another size at
   * the same position must not replace the file the durable checkpoint still names (a kill before the new
   * checkpoint would leave it naming a foreign filter).
   */
  static String name(LogPosition position, BloomSizing sizing) {
    return String.format(Locale.ROOT, "%s%012d-%d-n%d-p%s%s", PREFIX, position.segment(), position.offset(),
        sizing.expectedInsertions(), Double.toString(sizing.targetFpp()), SUFFIX);
  }

  /** Whether {@code fileName} is a filter checkpoint's name. */
  static boolean isFilter(String fileName) {
    return fileName.startsWith(PREFIX) && fileName.endsWith(SUFFIX);
  }

  /**
   * Deletes the filter files of {@code dir} other than {@code named} (empty: the checkpoint names none). The process
   * that opens the frontier is its only user.
   */
  static void deleteUnnamed(Path dir, String named) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> isFilter(f.getFileName().toString())).toList()) {
        if (!file.getFileName().toString().equals(named)) {
          log.info("removed {}: a URL filter no checkpoint names, left by a run killed while checkpointing", file);
          Files.deleteIfExists(file);
        }
      }
    }
  }
}

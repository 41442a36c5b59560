package io.sievecrawl.sieve.disk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A disk frontier's directory as {@link LogRecovery} first finds it: the log's segments, and what a kill can leave
 * behind that holds nothing (temporary files, a last segment shorter than its header), removed before the pass.
 */
final class RecoveryFiles {
  private static final Logger log = LoggerFactory.getLogger(LogRecovery.class); // its lines are recovery's

  private RecoveryFiles() {}

  /**
   * A kill while a new segment's header was being written leaves a last segment too short to hold one; it holds
   * no record, so it goes.
   */
  static void dropTornLastSegment(Path dir, List<Long> segmentNumbers) throws IOException {
    if (segmentNumbers.size() < 2) {
      return;
    }
    long last = segmentNumbers.get(segmentNumbers.size() - 1);
    Path file = dir.resolve(LogFormat.segmentName(last));
    if (Files.size(file) < LogFormat.HEADER_BYTES) {
      log.info("frontier segment {} holds only part of its header; removed it", file);
      Files.delete(file);
      segmentNumbers.remove(segmentNumbers.size() - 1);
    }
  }

  /**
   * Temporary files a kill left behind: a filter checkpoint cut off while it was written (as large as the filter) or
   * a checkpoint file never renamed into place. The process that opens the frontier is its only user.
   */
  static void deleteLeftovers(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".tmp")).toList()) {
        log.info("removed {}, left by a run killed while writing it", file);
        Files.deleteIfExists(file);
      }
    }
  }

  /** The numbers of the log's segments in the directory, in order. */
  static List<Long> segmentNumbers(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return new ArrayList<>(files.map(f -> LogFormat.segmentNumber(f.getFileName().toString()))
          .filter(number -> number > 0).sorted().toList());
    }
  }
}

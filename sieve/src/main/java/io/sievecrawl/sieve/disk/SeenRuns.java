package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.SeenStore;
import io.sievecrawl.sieve.StripedFingerprintSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A disk frontier's exact store of admitted URL fingerprints: runs on disk ({@link FingerprintRun}, 8 bytes per URL)
 * and, on the heap, the fingerprints admitted since the last checkpoint.
 *
 * <p>At a checkpoint the recent fingerprints are {@linkplain #freeze frozen} (while no admission runs, so the log
 * position read with them covers every one), {@linkplain #writeFrozen written} as a new run, and runs of similar
 * size merged, so that a crawl of N URLs keeps about log2(N / recent) runs. The checkpoint names the runs in use;
 * a run it does not name is the leftover of a kill and is deleted on open. After a kill, the recent fingerprints
 * come back from the log's records after the checkpoint's position.
 */
final class SeenRuns implements SeenStore {
  private static final Logger log = LoggerFactory.getLogger(SeenRuns.class);
  static final String PREFIX = "seen-";
  static final String SUFFIX = ".run";

  /** What look-ups read, swapped whole: fingerprints frozen and not yet in a run, and the runs, newest first. */
  private record Settled(StripedFingerprintSet frozen, List<FingerprintRun> runs) {}

  private final Path dir;
  private volatile StripedFingerprintSet recent = new StripedFingerprintSet();
  private final LongAdder recentCount = new LongAdder();
  private volatile Settled settled;
  private long nextNumber; // guarded by the frontier's checkpoint monitor, as are freeze and writeFrozen
  private final List<Path> retired = new ArrayList<>(); // runs merged away, deleted once a checkpoint drops them

  private SeenRuns(Path dir, List<FingerprintRun> runs, long nextNumber) {
    this.dir = dir;
    this.settled = new Settled(null, List.copyOf(runs));
    this.nextNumber = nextNumber;
  }

  /**
   * Opens the runs {@code ids} (newest first) in {@code dir} and deletes every other run there.
   *
   * @throws FrontierCorruptException if a named run is missing, damaged, or not the run the checkpoint recorded
   */
  static SeenRuns open(Path dir, List<CheckpointFile.RunId> ids) throws IOException {
    List<FingerprintRun> runs = new ArrayList<>();
    for (CheckpointFile.RunId id : ids) {
      Path file = dir.resolve(id.name());
      if (!Files.exists(file)) {
        throw new FrontierCorruptException(file + ": named by the checkpoint but missing");
      }
      FingerprintRun run = FingerprintRun.open(file);
      if (id.known() && (run.count() != id.count() || run.crc() != id.crc())) {
        // A valid run, but another one: a file restored from an older backup. Its missing URLs would be admitted
        // and fetched again, and those it holds in excess never would.
        throw new FrontierCorruptException(String.format(Locale.ROOT, "%s: holds %,d URL fingerprints (CRC-32C"
            + " %08x), but the checkpoint recorded %,d (CRC-32C %08x): it was replaced by another run, such as an"
            + " older copy from a backup; restore the whole crawl directory from one backup", file, run.count(),
            run.crc(), id.count(), id.crc()));
      }
      runs.add(run);
    }
    long highest = 0;
    Set<String> named = new HashSet<>(ids.stream().map(CheckpointFile.RunId::name).toList());
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.toList()) {
        long number = numberOf(file.getFileName().toString());
        if (number < 0) {
          continue;
        }
        highest = Math.max(highest, number);
        if (!named.contains(file.getFileName().toString())) {
          log.info("removed {}: a fingerprint run no checkpoint names, left by a run killed while merging", file);
          Files.delete(file);
        }
      }
    }
    return new SeenRuns(dir, runs, highest + 1);
  }

  @Override
  public boolean containsSettled(long fingerprint) {
    Settled s = settled;
    if (s.frozen != null && s.frozen.contains(fingerprint)) {
      return true;
    }
    for (FingerprintRun run : s.runs) {
      if (run.contains(fingerprint)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean addRecent(long fingerprint) {
    if (!recent.add(fingerprint)) {
      return false;
    }
    recentCount.increment();
    return true;
  }

  /** Fingerprints admitted since the last freeze. */
  long recentCount() {
    return recentCount.sum();
  }

  /** Whether fingerprints were frozen and not yet written as a run (the checkpoint that froze them failed). */
  boolean hasUnwrittenFrozen() {
    return settled.frozen != null;
  }

  /** Moves the recent fingerprints to the settled ones. The caller makes sure no admission runs meanwhile. */
  void freeze() {
    if (settled.frozen != null) {
      throw new IllegalStateException("the last frozen fingerprints were not written");
    }
    settled = new Settled(recent, settled.runs);
    recent = new StripedFingerprintSet();
    recentCount.reset();
  }

  /**
   * Writes the frozen fingerprints as a run, merges runs of similar size, and returns the names of the runs now in
   * use, newest first, for the checkpoint. Admissions go on meanwhile.
   */
  List<CheckpointFile.RunId> writeFrozen() throws IOException {
    Settled s = settled;
    List<FingerprintRun> runs = new ArrayList<>(s.runs);
    if (s.frozen != null) {
      long[] sorted = s.frozen.toSortedArray();
      if (sorted.length > 0) {
        runs.add(0, FingerprintRun.write(nextFile(), sorted));
      }
      settled = new Settled(null, List.copyOf(runs));
    }
    // Merge the newest two while the newer is at least half the older: each fingerprint is rewritten about
    // log2(N / recent) times over a crawl, and look-ups search few runs.
    while (runs.size() >= 2 && runs.get(0).count() * 2 >= runs.get(1).count()) {
      FingerprintRun merged = FingerprintRun.merge(nextFile(), runs.subList(0, 2));
      retired.add(runs.get(0).file());
      retired.add(runs.get(1).file());
      runs.subList(0, 2).clear();
      runs.add(0, merged);
      settled = new Settled(null, List.copyOf(runs));
    }
    return runs.stream().map(FingerprintRun::id).toList();
  }

  /** Deletes the runs merged away; call once a checkpoint that no longer names them is durable. */
  void deleteRetired() throws IOException {
    for (Path file : retired) {
      Files.deleteIfExists(file); // a look-up still reading its mapping is unaffected
    }
    retired.clear();
  }

  /** Gives every fingerprint, settled and recent, to {@code action} (a filter being rebuilt). */
  void forEach(LongConsumer action) {
    forEachSettled(action);
    forEachRecent(action);
  }

  /** Gives the settled fingerprints (in runs, or frozen for one) to {@code action}. */
  void forEachSettled(LongConsumer action) {
    Settled s = settled;
    for (FingerprintRun run : s.runs) {
      run.forEach(action);
    }
    if (s.frozen != null) {
      s.frozen.forEach(action);
    }
  }

  /** Gives the fingerprints admitted since the last freeze to {@code action}; exact while no admission runs. */
  void forEachRecent(LongConsumer action) {
    recent.forEach(action);
  }

  private Path nextFile() {
    return dir.resolve(String.format("%s%012d%s", PREFIX, nextNumber++, SUFFIX));
  }

  /** The number in a run's file name, or -1 if the name is not a run's. */
  static long numberOf(String name) {
    if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX)) {
      return -1;
    }
    try {
      return Long.parseLong(name.substring(PREFIX.length(), name.length() - SUFFIX.length()));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}

package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomFilterFile;
import io.sievecrawl.sieve.BloomSizing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes a {@link DiskFrontier}'s checkpoints: the URL filter, the exact store's frozen fingerprints as a run, and the
 * checkpoint file naming both with the log position P to redo from; then deletes the segments no longer needed. Adds
 * go on while the filter is written (the frontier's notes 4 and 7). One checkpoint runs at a time, under
 * {@link #monitor()}, which growth takes too.
 */
final class FilterCheckpoints {
  private final Path dir;
  private final AdmissionGate gate;
  private final QueueLog<?> queues;
  private final Object checkpointing = new Object();
  private final AtomicBoolean early = new AtomicBoolean();

  // Guarded by checkpointing.
  private LogPosition redoFrom; // of the last checkpoint
  private String filterFile; // of the last checkpoint

  FilterCheckpoints(Path dir, AdmissionGate gate, QueueLog<?> queues, CheckpointFile last) {
    this.dir = dir;
    this.gate = gate;
    this.queues = queues;
    this.redoFrom = last.redoFrom();
    this.filterFile = last.filterFile();
  }

  /** Held while a checkpoint is written; growth takes it so that no freeze runs while it reads the store. */
  Object monitor() {
    return checkpointing;
  }

  /** Whether this call is the first to ask for an early checkpoint since the last one began writing its runs. */
  boolean claimEarly() {
    return early.compareAndSet(false, true);
  }

  void write() throws IOException {
    SeenRuns seen = gate.seen();
    synchronized (checkpointing) {
      if (seen != null && seen.hasUnwrittenFrozen()) {
        seen.writeFrozen(); // a checkpoint that failed after its freeze: its fingerprints lie before this one's P too
      }
      QueueLog.Mark mark;
      long droppedAt;
      long rescuedAt;
      if (seen != null) {
        gate.close(); // no admission runs: the frozen fingerprints are those before P (note 7)
      }
      try {
        mark = queues.flushedMark();
        if (mark == null) {
          return;
        }
        droppedAt = gate.dropped();
        rescuedAt = gate.rescued();
        if (seen != null) {
          seen.freeze();
        }
      } finally {
        if (seen != null) {
          gate.open();
        }
      }
      BloomFilter filter = gate.filter();
      String name = FilterFiles.name(mark.position(), filter.sizing());
      BloomFilterFile.write(filter, dir.resolve(name), true);
      gate.close(); // wait out every offer that may have put bits in the file (note 4)
      gate.open();
      List<CheckpointFile.RunId> runs = seen == null ? List.of() : seen.writeFrozen();
      early.set(false);
      queues.sync();
      BloomSizing sizing = filter.sizing();
      new CheckpointFile(sizing.expectedInsertions(), sizing.targetFpp(), filter.seed(), name, mark.position(),
          mark.admitted(), droppedAt, seen != null, runs, rescuedAt).write(dir);
      if (seen != null) {
        seen.deleteRetired();
      }
      String previous = filterFile;
      filterFile = name;
      redoFrom = mark.position();
      if (!previous.isEmpty() && !previous.equals(name)) {
        Files.deleteIfExists(dir.resolve(previous));
      }
      queues.deleteObsoleteSegments(redoFrom);
    }
  }
}

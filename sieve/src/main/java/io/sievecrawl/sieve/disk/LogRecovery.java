package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.Admission;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomFilterFile;
import io.sievecrawl.sieve.BloomSizing;
import io.sievecrawl.sieve.FilterFileException;
import io.sievecrawl.sieve.TaskCodec;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds a disk frontier's state from its directory: the URL filter (checkpoint plus the log's tail), the
 * acknowledgements, and every queue's chain, head and count. One sequential pass over the log does it all.
 */
final class LogRecovery {
  /*
   * Chains. Each TASK record's next-field should hold the position of its queue's next TASK record. A kill or power
   * cut can leave a field unwritten (the patch had not reached the disk) or pointing into a torn tail, so the pass
   * compares each field with the next record of the same queue it meets, and writes the right value where they
   * differ. A queue's chain then runs through all its records in the surviving segments, in log order.
   *
   * Heads. Each ACK carries its queue's resume position: its oldest task in flight or waiting at that moment (0: none).
   * Everything of the queue before that position is acknowledged, so a queue's reading starts at the resume position
   * of its last ACK, or at the first TASK after an ACK that said 0, or at its first TASK when it has no ACK; from
   * there the few records acknowledged out of order are skipped.
   *
   * Deleted segments. A segment goes only when it and all before it hold no task to do, so a TASK in a surviving
   * segment has its ACK (if any) in a surviving one too. Acknowledgements of tasks in deleted segments (numbered
   * below the first surviving segment's first sequence number) are skipped.
   */
  private static final Logger log = LoggerFactory.getLogger(LogRecovery.class);

  CheckpointFile checkpoint;
  Admission admission;
  SeenRuns seen; // null when the filter decides alone
  boolean resized; // the filter was rebuilt at a new n or p from the exact store: checkpoint it at once
  LogWriter writer;
  SegmentFiles files;
  Segments segments = new Segments();
  AckWindow acks;
  QueueTable queues;
  long nextSeq;
  long pending;
  long admitted;

  /** One queue id's records met by the pass. */
  private static final class ChainScan {
    long first; // position of its first TASK record
    long lastNextField; // position of its last TASK record's next-field, and the value found there
    long lastNextValue;
    long tasks;
    long acks;
    long resume; // from its last ACK; 0 with resumeAtNextTask: none was unacknowledged then
    boolean resumeAtNextTask;
  }

  private LogRecovery() {}

  static <T> LogRecovery from(Path dir, long n, double p, TaskCodec<T> codec,
      Function<? super T, ? extends CharSequence> key, Function<? super T, String> queueKey,
      FrontierOptions options, Ticker ticker) throws IOException {
    LogRecovery r = new LogRecovery();
    RecoveryFiles.deleteLeftovers(dir);
    r.checkpoint = CheckpointFile.read(dir);
    List<Long> segmentNumbers = RecoveryFiles.segmentNumbers(dir);
    if (r.checkpoint != null && r.isUntouched(dir, segmentNumbers)) {
      // Killed while the frontier was being created: nothing was admitted yet; start it again.
      Files.deleteIfExists(dir.resolve(LogFormat.segmentName(1)));
      Files.delete(dir.resolve(CheckpointFile.NAME));
      r.checkpoint = null;
      segmentNumbers = List.of();
    }
    FilterFiles.deleteUnnamed(dir, r.checkpoint == null ? "" : r.checkpoint.filterFile());
    r.files = new SegmentFiles(dir);
    if (r.checkpoint == null) {
      if (!segmentNumbers.isEmpty()) {
        throw new FrontierCorruptException(dir.resolve(CheckpointFile.NAME)
            + ": missing, but the directory holds log segments");
      }
      boolean confirmed = options.confirm();
      r.checkpoint = CheckpointFile.initial(n, p, BloomFilter.DEFAULT_SEED, confirmed);
      r.startAdmission(dir, BloomFilter.create(BloomSizing.of(n, p), BloomFilter.DEFAULT_SEED, hashing(confirmed)));
      r.checkpoint.write(dir);
      r.writer = LogWriter.startSegment(dir, options.segmentBytes(), r.files, 1, 1);
      r.segments.note(1, 1);
      r.acks = new AckWindow(1);
      r.queues = new QueueTable(1);
      r.nextSeq = 1;
      return r;
    }
    r.recover(dir, n, p, segmentNumbers, codec, key, queueKey, options, ticker);
    return r;
  }

  /** Whether the checkpoint is the one written at creation and segment 1, if any, is shorter than its header. */
  private boolean isUntouched(Path dir, List<Long> segmentNumbers) throws IOException {
    boolean fresh = checkpoint.filterFile().isEmpty() && checkpoint.admitted() == 0
        && checkpoint.redoFrom().equals(new LogPosition(1, LogFormat.HEADER_BYTES));
    return fresh && (segmentNumbers.isEmpty() || (segmentNumbers.equals(List.of(1L))
        && Files.size(dir.resolve(LogFormat.segmentName(1))) < LogFormat.HEADER_BYTES));
  }

  private <T> void recover(Path dir, long n, double p, List<Long> segmentNumbers, TaskCodec<T> codec,
      Function<? super T, ? extends CharSequence> key, Function<? super T, String> queueKey,
      FrontierOptions options, Ticker ticker) throws IOException {
    long started = ticker.nanos();
    CheckpointFile cp = checkpoint;
    boolean resize = cp.n() != n || Double.compare(cp.p(), p) != 0;
    if (resize && !cp.confirmed()) {
      throw new FrontierCorruptException(dir.resolve(CheckpointFile.NAME) + String.format(Locale.ROOT, ": this"
          + " frontier's URL filter was sized for n = %,d and p = %s; it cannot change to n = %,d, p = %s (only a"
          + " frontier with an exact store can rebuild its filter)", cp.n(), cp.p(), n, p));
    }
    startAdmission(dir, cp.filterFile().isEmpty()
        ? BloomFilter.create(BloomSizing.of(cp.n(), cp.p()), cp.seed(), hashing(cp.confirmed()))
        : readFilter(dir, cp));
    RecoveryFiles.dropTornLastSegment(dir, segmentNumbers);
    if (segmentNumbers.isEmpty()) {
      throw new FrontierCorruptException(dir + ": the checkpoint exists but every log segment is missing");
    }
    for (int i = 1; i < segmentNumbers.size(); i++) {
      if (segmentNumbers.get(i) != segmentNumbers.get(0) + i) {
        throw new FrontierCorruptException(dir.resolve(LogFormat.segmentName(segmentNumbers.get(0) + i))
            + ": missing");
      }
    }
    long first = segmentNumbers.get(0);
    long last = segmentNumbers.get(segmentNumbers.size() - 1);
    LogPosition redo = cp.redoFrom();
    if (redo.segment() < first || redo.segment() > last) {
      throw new FrontierCorruptException(dir.resolve(LogFormat.segmentName(redo.segment()))
          + ": named by the checkpoint but missing");
    }
    long lastLength = Files.size(dir.resolve(LogFormat.segmentName(last)));
    LogPosition end = new LogPosition(last, lastLength);
    if (end.isBefore(redo)) {
      throw shortened(dir, redo, end);
    }
    Pass<T> pass = new Pass<>(dir, redo, last, end, codec, key);
    try (LogReader scan = LogReader.atSegment(dir, first)) {
      pass.scan = scan;
      pass.firstSurvivingSeq = scan.segmentFirstSeq();
      acks = new AckWindow(pass.firstSurvivingSeq);
      nextSeq = pass.firstSurvivingSeq;
      admitted = cp.admitted();
      // One call per record, not one loop over the whole log: the launcher runs the JVM without on-stack
      // replacement, so a method is compiled for its next call, and a loop of millions of records in one call would
      // run in the interpreter throughout.
      boolean more;
      do {
        more = readRecord(pass);
      } while (more);
    }
    Map<Integer, ChainScan> chains = pass.chains;
    int maxQueue = pass.maxQueue;
    long replayed = pass.replayed;
    end = pass.end;
    if (resize) {
      rebuildFilter(dir, BloomSizing.of(n, p), ticker);
    }
    writer = LogWriter.append(dir, options.segmentBytes(), files, last, segments.firstSeqOf(last), end.offset());
    queues = new QueueTable(maxQueue + 1);
    restoreQueues(chains, codec, queueKey);
    log.info("frontier in {} recovered in {}: {} tasks waiting in {} queues, {} admitted in all; filter from {}"
            + " plus {} records replayed", dir, String.format(Locale.ROOT, "%,d ms", (ticker.nanos() - started)
            / 1_000_000), thousands(pending), thousands(queues.holding()), thousands(admitted),
        cp.filterFile().isEmpty() ? "scratch" : cp.filterFile(), thousands(replayed));
  }

  /** What the recovery's pass over the log carries from one record to the next. */
  private static final class Pass<T> {
    final Path dir;
    final LogPosition redo;
    final long lastSegment;
    final TaskCodec<T> codec;
    final Function<? super T, ? extends CharSequence> key;
    final Map<Integer, ChainScan> chains = new HashMap<>();
    LogReader scan;
    LogPosition end; // moves back to a torn record at the tail
    long firstSurvivingSeq;
    int maxQueue;
    long replayed;

    Pass(Path dir, LogPosition redo, long lastSegment, LogPosition end, TaskCodec<T> codec,
        Function<? super T, ? extends CharSequence> key) {
      this.dir = dir;
      this.redo = redo;
      this.lastSegment = lastSegment;
      this.end = end;
      this.codec = codec;
      this.key = key;
    }
  }

  /**
   * Reads the log's next record into the recovery: its queue's chain, its acknowledgement, its URL into the filter
   * if the checkpoint does not hold it yet. False at the end of the log (or at a torn record at its tail).
   */
  private <T> boolean readRecord(Pass<T> pass) throws IOException {
    LogReader scan = pass.scan;
    Path dir = pass.dir;
    LogPosition redo = pass.redo;
    long last = pass.lastSegment;
    LogReader.Step step = scan.next(pass.end);
    segments.note(scan.segment(), scan.segmentFirstSeq());
    if (step == LogReader.Step.END) {
      return false;
    }
    if (step == LogReader.Step.DAMAGED) {
      if (scan.segment() != last || !scan.damageAtTail) {
        throw new FrontierCorruptException(dir + "/" + scan.damage + " (not at the end of the log: the"
            + " segment is corrupt, not merely cut short)");
      }
      pass.end = scan.position();
      if (pass.end.isBefore(redo)) {
        throw shortened(dir, redo, pass.end);
      }
      log.info("frontier log {} ends in a torn record ({}); cut it off: the normal result of a kill during a"
          + " write", dir, scan.damage);
      return false;
    }
    pass.maxQueue = Math.max(pass.maxQueue, scan.queue);
    ChainScan chain = pass.chains.computeIfAbsent(scan.queue, q -> new ChainScan());
    if (scan.type == LogFormat.ACK) {
      if (scan.seq >= nextSeq) {
        throw new FrontierCorruptException(dir + "/" + scan.recordStart
            + ": acknowledges task " + scan.seq + " before it was written");
      }
      if (scan.seq >= pass.firstSurvivingSeq) {
        if (!acks.acknowledge(scan.seq)) {
          throw new FrontierCorruptException(dir + "/" + scan.recordStart + ": acknowledges task " + scan.seq
              + " a second time");
        }
        chain.acks++;
        segments.acknowledged(scan.seq);
      }
      chain.resume = scan.link;
      chain.resumeAtNextTask = scan.link == 0;
      return true;
    }
    if (scan.seq != nextSeq) {
      throw new FrontierCorruptException(dir + "/" + scan.recordStart + ": task " + scan.seq
          + " where task " + nextSeq + " was due");
    }
    nextSeq++;
    long position = scan.recordPosition();
    if (chain.lastNextField != 0 && chain.lastNextValue != position) {
      files.writeLong(chain.lastNextField, position); // a link the crash kept from the disk
    }
    chain.lastNextField = scan.nextField();
    chain.lastNextValue = scan.link;
    if (chain.first == 0) {
      chain.first = position;
    }
    if (chain.resumeAtNextTask) {
      chain.resume = position;
      chain.resumeAtNextTask = false;
    }
    chain.tasks++;
    segments.added(scan.segment());
    if (!scan.recordStart.isBefore(redo)) {
      T task;
      try {
        task = pass.codec.decode(scan.taskBytes(), scan.taskOffset, scan.taskLength);
      } catch (IllegalArgumentException e) {
        throw new FrontierCorruptException(dir + "/" + scan.recordStart + ": " + e.getMessage());
      }
      admission.readmit(pass.key.apply(task));
      pass.replayed++;
      admitted++;
    }
    return true;
  }

  private static BloomFilter.Hashing hashing(boolean confirmed) {
    return confirmed ? BloomFilter.Hashing.FINGERPRINT : BloomFilter.Hashing.URL;
  }

  /** The filter alone, or confirmed by the exact store the checkpoint names. */
  private void startAdmission(Path dir, BloomFilter filter) throws IOException {
    if (checkpoint.confirmed()) {
      seen = SeenRuns.open(dir, checkpoint.seenRuns());
      admission = Admission.confirmed(filter, seen);
    } else {
      admission = Admission.byFilter(filter);
    }
  }

  /** A filter of {@code sizing} holding every fingerprint of the store: nothing admitted is forgotten or repeated. */
  private void rebuildFilter(Path dir, BloomSizing sizing, Ticker ticker) {
    long started = ticker.nanos();
    BloomFilter old = admission.filter();
    BloomFilter rebuilt = BloomFilter.create(sizing, old.seed(), BloomFilter.Hashing.FINGERPRINT);
    long[] urls = new long[1];
    seen.forEach(fingerprint -> {
      rebuilt.addFingerprint(fingerprint);
      urls[0]++; // the store's exact count, not the new filter's estimate of it
    });
    admission = Admission.confirmed(rebuilt, seen);
    resized = true;
    log.info("frontier in {}: rebuilt the URL filter from its exact store for n = {}, p = {} (was n = {}, p = {}):"
            + " {} URLs in {}", dir, thousands(sizing.expectedInsertions()), sizing.targetFpp(),
        thousands(old.expectedInsertions()), old.targetFpp(), thousands(urls[0]),
        String.format(Locale.ROOT, "%,d ms", (ticker.nanos() - started) / 1_000_000));
  }

  private static String thousands(long count) {
    return String.format(Locale.ROOT, "%,d", count);
  }

  /** Finds each live queue's head, ends its chain, learns its key from its head task, and lines them up. */
  private <T> void restoreQueues(Map<Integer, ChainScan> chains, TaskCodec<T> codec,
      Function<? super T, String> queueKey) throws IOException {
    List<QueueTable.Queue> live = new ArrayList<>();
    for (Map.Entry<Integer, ChainScan> e : chains.entrySet()) {
      ChainScan chain = e.getValue();
      long waiting = chain.tasks - chain.acks;
      if (waiting <= 0) {
        continue;
      }
      if (chain.lastNextValue != 0) {
        files.writeLong(chain.lastNextField, 0); // it pointed into the torn tail that was cut
      }
      long head = chain.resume != 0 ? chain.resume : chain.first;
      SegmentFiles.TaskRecord record = files.readTask(head);
      while (acks.isAcknowledged(record.seq)) {
        if (record.next == 0) {
          throw new FrontierCorruptException("queue " + e.getKey() + ": " + waiting
              + " tasks should wait, but its chain ends at " + LogFormat.describe(head));
        }
        head = record.next;
        record = files.readTask(head);
      }
      if (record.queue != e.getKey()) {
        throw new FrontierCorruptException(LogFormat.describe(head) + ": a task of queue " + record.queue
            + " where queue " + e.getKey() + " resumes");
      }
      T task;
      try {
        task = codec.decode(record.bytes, record.taskOffset, record.taskLength);
      } catch (IllegalArgumentException ex) {
        throw new FrontierCorruptException(LogFormat.describe(head) + ": " + ex.getMessage());
      }
      QueueTable.Queue q = new QueueTable.Queue(queueKey.apply(task), e.getKey());
      q.head = head;
      q.tail = chain.lastNextField;
      q.waiting = Math.toIntExact(waiting);
      live.add(q);
      pending += waiting;
    }
    live.sort(Comparator.comparingLong(q -> q.head)); // the longest waiting first
    for (QueueTable.Queue q : live) {
      try {
        queues.restore(q);
      } catch (IllegalStateException e) {
        throw new FrontierCorruptException("two queues of the log hold tasks of " + q.key);
      }
    }
  }

  private static FrontierCorruptException shortened(Path dir, LogPosition redo, LogPosition end) {
    return new FrontierCorruptException(dir + ": the log ends at " + end + ", before " + redo + ", which the"
        + " checkpoint says was on disk; the log was shortened after the crawl wrote it (a copy cut short, a restore"
        + " from an older backup), and continuing would silently drop the URLs it held");
  }

  private static BloomFilter readFilter(Path dir, CheckpointFile cp) throws IOException {
    Path file = dir.resolve(cp.filterFile());
    BloomFilter restored;
    try {
      restored = BloomFilterFile.read(file);
    } catch (FilterFileException e) {
      throw new FrontierCorruptException(e.getMessage());
    } catch (java.nio.file.NoSuchFileException e) {
      throw new FrontierCorruptException(file + ": named by the checkpoint but missing");
    }
    if (restored.expectedInsertions() != cp.n() || Double.compare(restored.targetFpp(), cp.p()) != 0
        || restored.seed() != cp.seed() || restored.hashing() != hashing(cp.confirmed())) {
      throw new FrontierCorruptException(file + ": a filter of another frontier (n, p, seed or hashing differ from"
          + " the checkpoint)");
    }
    return restored;
  }
}

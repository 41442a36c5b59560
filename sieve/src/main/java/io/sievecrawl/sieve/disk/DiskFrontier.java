package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomFilterFile;
import io.sievecrawl.sieve.BloomSizing;
import io.sievecrawl.sieve.CapacityMonitor;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.FilterFileException;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.SieveStats;
import io.sievecrawl.sieve.TaskCodec;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Frontier} kept in an append-only log on disk: the heap holds the URL filter and two buffers, whatever
 * the number of waiting tasks, and a crawl killed at any moment (kill -9, an OutOfMemoryError) resumes from the
 * directory with nothing admitted lost.
 *
 * <p>Open one with {@link #open}: an empty directory starts a new frontier, one that holds a frontier is recovered.
 */
public final class DiskFrontier<T> implements Frontier<T> {
  /*
   * Design notes.
   *
   * 1. One log is the queue and the filter's redo log. Every admitted task is appended as a TASK record with the
   *    next sequence number; completing a claim appends an ACK; a requeue appends one REQUEUE record that is both
   *    the task's new place at the tail and the acknowledgement of its old one (one record, so a crash cannot
   *    leave both or neither). Records carry a CRC-32C. The reader hands tasks out in log order, skipping ACKs and
   *    tasks already acknowledged. Why one log: a single order makes recovery a simple prefix (the first damaged
   *    record ends it), and an acknowledgement can never be durable while a link its page produced is not,
   *    because the links were appended before it.
   *
   * 2. Durability. Offers stay in a 256 KB buffer; complete() hands the buffer to the operating system in one
   *    write, so everything acknowledged survives a kill of the process, and a link still in the buffer when the
   *    process dies is safe because its page was not acknowledged and will be fetched again. A background thread
   *    forces the log to the device every syncInterval (power cuts) without holding the lock during the fsync.
   *
   * 3. Filter checkpoints never stall the crawl. Bits only go from 0 to 1, so a filter file written while adds go
   *    on, plus the log's records from a position P read before the write began, is a filter that knows every
   *    admitted URL. The danger is the converse: a bit in the file whose record never reached the log (the
   *    process died between filter.add and the append), which would drop that URL forever when its page is
   *    fetched again. So an offer holds the read side of offerGate from add to append, and the checkpoint, after
   *    writing the file, takes and releases the write side once: every offer that may have put a bit into the
   *    file has then appended its record. The log is forced, then the checkpoint file naming the filter file and
   *    P is replaced atomically. No lock is held while the filter is written.
   *
   * 3. Acknowledgements complete out of order; AckWindow keeps the low-watermark (all below are done) and a
   *    bitmap above it. A segment is deleted when every task in it is below the watermark, the reader has passed
   *    it, and it lies before the last checkpoint's P. Recovery reads the segments that remain, re-adds to the
   *    filter every task at or after P, replays the acknowledgements, cuts a torn tail off the last segment (the
   *    normal result of a kill during a write) and refuses any other damage.
   *
   * 4. Threads. One ReentrantLock guards the writer, the reader, the window and the counters; file reads and
   *    writes to the page cache happen under it (short, bounded by the 256 KB buffers), fsyncs never do. The
   *    filter has its own stripe locks and is added to before this lock is taken.
   */
  private static final Logger log = LoggerFactory.getLogger(DiskFrontier.class);

  private final Path dir;
  private final FrontierOptions options;
  private final TaskCodec<T> codec;
  private final Function<? super T, ? extends CharSequence> key;
  private final BloomFilter filter;
  private final CapacityMonitor capacity;
  private final ReentrantReadWriteLock offerGate = new ReentrantReadWriteLock();
  private final ReentrantLock lock = new ReentrantLock();
  private final LongAdder dropped = new LongAdder();
  private final Object checkpointing = new Object();
  private final ScheduledExecutorService syncer;

  // Guarded by lock.
  private final LogWriter writer;
  private final LogReader reader;
  private final AckWindow acks;
  private final TreeMap<Long, Long> firstSeqBySegment;
  private long nextSeq;
  private long pending; // tasks not acknowledged: waiting or in flight
  private long inFlight;
  private long admitted;
  private boolean stopped;
  private boolean closed;
  private IOException failure; // the first write failure; the frontier is unusable after it
  private LogPosition redoFrom; // of the last checkpoint
  private String filterFile; // of the last checkpoint
  private long droppedBefore; // duplicates dropped before this run

  private DiskFrontier(Path dir, FrontierOptions options, TaskCodec<T> codec,
      Function<? super T, ? extends CharSequence> key, Recovered recovered) {
    this.dir = dir;
    this.options = options;
    this.codec = codec;
    this.key = key;
    this.filter = recovered.filter;
    this.capacity = new CapacityMonitor(filter, options.capacityKey());
    this.writer = recovered.writer;
    this.reader = recovered.reader;
    this.acks = recovered.acks;
    this.firstSeqBySegment = recovered.firstSeqBySegment;
    this.nextSeq = recovered.nextSeq;
    this.pending = recovered.pending;
    this.admitted = recovered.admitted;
    this.redoFrom = recovered.checkpoint.redoFrom();
    this.filterFile = recovered.checkpoint.filterFile();
    this.droppedBefore = recovered.checkpoint.duplicatesDropped();
    this.syncer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "frontier-sync");
      t.setDaemon(true);
      return t;
    });
    long sync = options.syncInterval().toMillis();
    syncer.scheduleWithFixedDelay(this::syncQuietly, sync, sync, TimeUnit.MILLISECONDS);
    long every = options.checkpointInterval().toMillis();
    syncer.scheduleWithFixedDelay(this::checkpointQuietly, every, every, TimeUnit.MILLISECONDS);
  }

  /**
   * Opens the frontier in {@code dir}: a new one if the directory is empty or missing, otherwise the one it holds,
   * recovered as of its last write (a torn last record is cut off and logged at INFO).
   *
   * @param expectedUrls n of the URL filter; a frontier that exists must have been created with the same n and p
   * @param fpp p of the URL filter
   * @throws FrontierCorruptException if the directory holds damaged state, a frontier of another format version,
   *     or one created with another n or p; the message names the file
   */
  public static <T> DiskFrontier<T> open(Path dir, long expectedUrls, double fpp, TaskCodec<T> codec,
      Function<? super T, ? extends CharSequence> key, FrontierOptions options) throws IOException {
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(key, "key");
    Files.createDirectories(dir);
    Recovered recovered = Recovered.from(dir, expectedUrls, fpp, codec, key, options);
    return new DiskFrontier<>(dir, options, codec, key, recovered);
  }

  @Override
  public boolean offer(T task) {
    CharSequence url = key.apply(Objects.requireNonNull(task, "task"));
    offerGate.readLock().lock();
    try {
      if (!filter.add(url)) {
        dropped.increment();
        return false;
      }
      byte[] bytes = codec.encode(task);
      lock.lock();
      try {
        checkUsable();
        long seq = nextSeq++;
        writer.append(LogFormat.TASK, seq, 0, bytes, nextSeq);
        noteSegment();
        pending++;
        admitted++;
      } catch (IOException e) {
        throw failed(e);
      } finally {
        lock.unlock();
      }
    } finally {
      offerGate.readLock().unlock();
    }
    capacity.check();
    return true;
  }

  @Override
  public Claim<T> poll() {
    lock.lock();
    try {
      checkUsable();
      if (stopped || pending == inFlight) {
        return null;
      }
      while (true) {
        LogReader.Step step = reader.next(writer.flushedEnd());
        if (step == LogReader.Step.END) {
          if (!writer.hasBuffered()) {
            throw failed(new FrontierCorruptException(dir + ": " + (pending - inFlight)
                + " tasks should be waiting, but the log holds no more"));
          }
          writer.flush(); // the next task is still in the write buffer
          continue;
        }
        if (step == LogReader.Step.DAMAGED) {
          throw failed(new FrontierCorruptException(dir + "/" + reader.damage));
        }
        if (reader.type == LogFormat.ACK || acks.isAcknowledged(reader.seq)) {
          continue;
        }
        T task = codec.decode(reader.taskBytes(), reader.taskOffset, reader.taskLength);
        inFlight++;
        return new Claim<>(task, reader.seq);
      }
    } catch (IOException e) {
      throw failed(e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void complete(Claim<T> claim) {
    lock.lock();
    try {
      checkUsable();
      release(claim);
      writer.append(LogFormat.ACK, claim.id(), 0, null, nextSeq);
      noteSegment();
      writer.flush(); // an acknowledged page is never fetched again, even after a kill
      pending--;
    } catch (IOException e) {
      throw failed(e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public long requeue(Claim<T> claim) {
    byte[] bytes = codec.encode(claim.task());
    lock.lock();
    try {
      checkUsable();
      release(claim);
      long seq = nextSeq++;
      writer.append(LogFormat.REQUEUE, seq, claim.id(), bytes, nextSeq);
      noteSegment();
      return seq;
    } catch (IOException e) {
      throw failed(e);
    } finally {
      lock.unlock();
    }
  }

  private void release(Claim<T> claim) {
    if (inFlight == 0 || !acks.acknowledge(claim.id())) {
      throw new IllegalStateException("claim " + claim.id() + " is not in flight");
    }
    inFlight--;
  }

  /** Records the first sequence number of a segment the writer just started. */
  private void noteSegment() {
    if (firstSeqBySegment.lastKey() != writer.segment()) {
      firstSeqBySegment.put(writer.segment(), writer.firstSeq());
    }
  }

  @Override
  public boolean isFinished() {
    lock.lock();
    try {
      return stopped || pending == 0;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void stop() {
    lock.lock();
    try {
      stopped = true;
    } finally {
      lock.unlock();
    }
  }

  /** The URL filter, for tests and statistics. */
  public BloomFilter filter() {
    return filter;
  }

  @Override
  public SieveStats stats() {
    long queued;
    long working;
    long admittedNow;
    lock.lock();
    try {
      queued = pending - inFlight;
      working = inFlight;
      admittedNow = admitted;
    } finally {
      lock.unlock();
    }
    return SieveStats.of(admittedNow, droppedBefore + dropped.sum(), queued, working, filter, capacity.warnings());
  }

  /** Bytes the frontier's files take on disk now (log segments and filter checkpoint). */
  public long diskBytes() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      long total = 0;
      for (Path file : files.toList()) {
        total += Files.size(file);
      }
      return total;
    }
  }

  /** Forces the log to the device; run every syncInterval by the background thread. */
  public void sync() throws IOException {
    RandomAccessFile current;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      checkUsable();
      writer.flush();
      current = writer.file();
    } catch (IOException e) {
      throw failed(e);
    } finally {
      lock.unlock();
    }
    LogWriter.force(current);
  }

  /**
   * Writes the URL filter and a checkpoint naming it, then deletes the segments no longer needed. Adds go on while
   * the filter is written (see the design notes).
   */
  @Override
  public void checkpoint() throws IOException {
    synchronized (checkpointing) {
      LogPosition position;
      long admittedAt;
      lock.lock();
      try {
        if (closed) {
          return;
        }
        checkUsable();
        writer.flush();
        position = writer.flushedEnd();
        admittedAt = admitted;
      } finally {
        lock.unlock();
      }
      long droppedAt = droppedBefore + dropped.sum();
      String name = String.format("filter-%012d-%d.bf", position.segment(), position.offset());
      BloomFilterFile.write(filter, dir.resolve(name), true);
      offerGate.writeLock().lock(); // wait out every offer that may have put bits in the file (note 3)
      offerGate.writeLock().unlock();
      sync();
      BloomSizing sizing = filter.sizing();
      new CheckpointFile(sizing.expectedInsertions(), sizing.targetFpp(), filter.seed(), name, position, admittedAt,
          droppedAt).write(dir);
      String previous;
      lock.lock();
      try {
        previous = filterFile;
        filterFile = name;
        redoFrom = position;
      } finally {
        lock.unlock();
      }
      if (!previous.isEmpty() && !previous.equals(name)) {
        Files.deleteIfExists(dir.resolve(previous));
      }
      deleteObsoleteSegments();
    }
  }

  private void deleteObsoleteSegments() throws IOException {
    List<Long> obsolete = new ArrayList<>();
    lock.lock();
    try {
      long watermark = acks.watermark();
      for (Map.Entry<Long, Long> segment : firstSeqBySegment.entrySet()) {
        long number = segment.getKey();
        Long nextFirst = firstSeqBySegment.higherKey(number) == null ? null
            : firstSeqBySegment.get(firstSeqBySegment.higherKey(number));
        boolean done = nextFirst != null && nextFirst <= watermark;
        if (!done || number >= redoFrom.segment() || number >= reader.segment() || number >= writer.segment()) {
          break;
        }
        obsolete.add(number);
      }
      obsolete.forEach(firstSeqBySegment::remove);
    } finally {
      lock.unlock();
    }
    for (long number : obsolete) {
      Files.deleteIfExists(dir.resolve(LogFormat.segmentName(number)));
    }
  }

  private void syncQuietly() {
    try {
      sync();
    } catch (IOException | RuntimeException e) {
      log.error("cannot force the frontier log in {} to disk: {}", dir, e.getMessage());
    }
  }

  private void checkpointQuietly() {
    try {
      checkpoint();
    } catch (IOException | RuntimeException e) {
      log.error("cannot write a frontier checkpoint in {}: {}", dir, e.getMessage());
    }
  }

  private void checkUsable() throws IOException {
    if (failure != null) {
      throw new IOException("the frontier stopped after an earlier failure: " + failure.getMessage(), failure);
    }
    if (closed) {
      throw new IllegalStateException("the frontier in " + dir + " is closed");
    }
  }

  /** Remembers the first write failure (later calls fail too) and wraps it for the unchecked contract. */
  private FrontierFailure failed(IOException e) {
    if (failure == null) {
      failure = e;
    }
    return new FrontierFailure("the frontier in " + dir + " failed: " + e.getMessage(), e);
  }

  /** Flushes and forces the log and closes the files; tasks not completed wait there for the next run. */
  @Override
  public void close() throws IOException {
    syncer.shutdownNow();
    synchronized (checkpointing) {
      lock.lock();
      try {
        if (closed) {
          return;
        }
        closed = true;
        try {
          writer.close();
        } finally {
          reader.close();
        }
      } finally {
        lock.unlock();
      }
    }
  }

  @Override
  public String toString() {
    return "DiskFrontier[" + dir + ", " + stats() + "]";
  }

  /** What recovery found in the directory: the state a frontier starts from. */
  private static final class Recovered {
    CheckpointFile checkpoint;
    BloomFilter filter;
    LogWriter writer;
    LogReader reader;
    AckWindow acks;
    TreeMap<Long, Long> firstSeqBySegment = new TreeMap<>();
    long nextSeq;
    long pending;
    long admitted;

    static <T> Recovered from(Path dir, long n, double p, TaskCodec<T> codec,
        Function<? super T, ? extends CharSequence> key, FrontierOptions options) throws IOException {
      Recovered r = new Recovered();
      r.checkpoint = CheckpointFile.read(dir);
      List<Long> segments = segments(dir);
      if (r.checkpoint != null && r.isUntouched(dir, segments)) {
        // Killed while the frontier was being created: nothing was admitted yet; start it again.
        Files.deleteIfExists(dir.resolve(LogFormat.segmentName(1)));
        Files.delete(dir.resolve(CheckpointFile.NAME));
        r.checkpoint = null;
        segments = List.of();
      }
      if (r.checkpoint == null) {
        if (!segments.isEmpty()) {
          throw new FrontierCorruptException(dir.resolve(CheckpointFile.NAME)
              + ": missing, but the directory holds log segments");
        }
        r.filter = BloomFilter.create(n, p);
        r.checkpoint = new CheckpointFile(n, p, r.filter.seed(), "", new LogPosition(1, LogFormat.HEADER_BYTES), 0, 0);
        r.checkpoint.write(dir);
        r.writer = LogWriter.startSegment(dir, options.segmentBytes(), 1, 1);
        r.reader = LogReader.atSegment(dir, 1);
        r.acks = new AckWindow(1);
        r.firstSeqBySegment.put(1L, 1L);
        r.nextSeq = 1;
        return r;
      }
      r.recover(dir, n, p, segments, codec, key, options);
      return r;
    }

    /** Whether the checkpoint is the one written at creation and segment 1, if any, is shorter than its header. */
    private boolean isUntouched(Path dir, List<Long> segments) throws IOException {
      boolean fresh = checkpoint.filterFile().isEmpty() && checkpoint.admitted() == 0
          && checkpoint.redoFrom().equals(new LogPosition(1, LogFormat.HEADER_BYTES));
      return fresh && (segments.isEmpty() || (segments.equals(List.of(1L))
          && Files.size(dir.resolve(LogFormat.segmentName(1))) < LogFormat.HEADER_BYTES));
    }

    private <T> void recover(Path dir, long n, double p, List<Long> segments, TaskCodec<T> codec,
        Function<? super T, ? extends CharSequence> key, FrontierOptions options) throws IOException {
      long started = System.nanoTime();
      CheckpointFile cp = checkpoint;
      if (cp.n() != n || Double.compare(cp.p(), p) != 0) {
        throw new FrontierCorruptException(dir.resolve(CheckpointFile.NAME) + ": this frontier's URL filter was"
            + " sized for n = " + cp.n() + " and p = " + cp.p() + "; it cannot change to n = " + n + ", p = " + p);
      }
      filter = cp.filterFile().isEmpty() ? BloomFilter.create(BloomSizing.of(n, p), cp.seed()) : readFilter(dir, cp);
      dropTornLastSegment(dir, segments);
      if (segments.isEmpty()) {
        throw new FrontierCorruptException(dir + ": the checkpoint exists but every log segment is missing");
      }
      for (int i = 1; i < segments.size(); i++) {
        if (segments.get(i) != segments.get(0) + i) {
          throw new FrontierCorruptException(dir.resolve(LogFormat.segmentName(segments.get(0) + i)) + ": missing");
        }
      }
      long first = segments.get(0);
      long last = segments.get(segments.size() - 1);
      if (cp.redoFrom().segment() < first || cp.redoFrom().segment() > last) {
        throw new FrontierCorruptException(dir.resolve(LogFormat.segmentName(cp.redoFrom().segment()))
            + ": named by the checkpoint but missing");
      }
      long lastLength = Files.size(dir.resolve(LogFormat.segmentName(last)));
      LogPosition end = new LogPosition(last, lastLength);
      long replayed = 0;
      try (LogReader scan = LogReader.atSegment(dir, first)) {
        acks = new AckWindow(scan.segmentFirstSeq());
        nextSeq = scan.segmentFirstSeq();
        admitted = cp.admitted();
        firstSeqBySegment.put(first, scan.segmentFirstSeq());
        while (true) {
          LogReader.Step step = scan.next(end);
          firstSeqBySegment.putIfAbsent(scan.segment(), scan.segmentFirstSeq());
          if (step == LogReader.Step.END) {
            break;
          }
          if (step == LogReader.Step.DAMAGED) {
            if (scan.segment() != last || !scan.damageAtTail) {
              throw new FrontierCorruptException(dir + "/" + scan.damage + " (not at the end of the log: the"
                  + " segment is corrupt, not merely cut short)");
            }
            end = scan.position();
            log.info("frontier log {} ends in a torn record ({}); cut it off: the normal result of a kill during a"
                + " write", dir, scan.damage);
            break;
          }
          if (scan.type == LogFormat.ACK) {
            if (scan.seq >= nextSeq) {
              throw new FrontierCorruptException(dir + "/" + scan.recordStart
                  + ": acknowledges task " + scan.seq + " before it was written");
            }
            acks.acknowledge(scan.seq);
            continue;
          }
          if (scan.seq != nextSeq) {
            throw new FrontierCorruptException(dir + "/" + scan.recordStart + ": task " + scan.seq
                + " where task " + nextSeq + " was due");
          }
          nextSeq++;
          if (scan.type == LogFormat.REQUEUE) {
            acks.acknowledge(scan.replacedSeq);
          }
          if (!scan.recordStart.isBefore(cp.redoFrom())) {
            T task;
            try {
              task = codec.decode(scan.taskBytes(), scan.taskOffset, scan.taskLength);
            } catch (IllegalArgumentException e) {
              throw new FrontierCorruptException(dir + "/" + scan.recordStart + ": " + e.getMessage());
            }
            filter.add(key.apply(task));
            replayed++;
            if (scan.type == LogFormat.TASK) {
              admitted++;
            }
          }
        }
      }
      pending = (nextSeq - acks.watermark()) - acks.acknowledgedAbove();
      writer = LogWriter.append(dir, options.segmentBytes(), last, firstSeqBySegment.get(last), end.offset());
      reader = LogReader.atSegment(dir, segmentOf(acks.watermark()));
      log.info("frontier in {} recovered in {} ms: {} tasks waiting, {} admitted in all; filter from {} plus {}"
              + " records replayed", dir, (System.nanoTime() - started) / 1_000_000, pending, admitted,
          cp.filterFile().isEmpty() ? "scratch" : cp.filterFile(), replayed);
    }

    /** The segment holding the task with sequence number {@code seq}, or the last one. */
    private long segmentOf(long seq) {
      long found = firstSeqBySegment.firstKey();
      for (Map.Entry<Long, Long> e : firstSeqBySegment.entrySet()) {
        if (e.getValue() <= seq) {
          found = e.getKey();
        }
      }
      return found;
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
          || restored.seed() != cp.seed()) {
        throw new FrontierCorruptException(file + ": a filter of another frontier (n, p or seed differ from the"
            + " checkpoint)");
      }
      return restored;
    }

    /**
     * A kill while a new segment's header was being written leaves a last segment too short to hold one; it holds
     * no record, so it goes.
     */
    private static void dropTornLastSegment(Path dir, List<Long> segments) throws IOException {
      if (segments.size() < 2) {
        return;
      }
      long last = segments.get(segments.size() - 1);
      Path file = dir.resolve(LogFormat.segmentName(last));
      if (Files.size(file) < LogFormat.HEADER_BYTES) {
        log.info("frontier segment {} holds only part of its header; removed it", file);
        Files.delete(file);
        segments.remove(segments.size() - 1);
      }
    }

    private static List<Long> segments(Path dir) throws IOException {
      try (Stream<Path> files = Files.list(dir)) {
        List<Long> numbers = new ArrayList<>(files.map(f -> LogFormat.segmentNumber(f.getFileName().toString()))
            .filter(number -> number > 0).sorted().toList());
        return numbers;
      }
    }
  }
}

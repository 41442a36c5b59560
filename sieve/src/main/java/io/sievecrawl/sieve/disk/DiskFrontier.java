package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.Admission;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomFilterFile;
import io.sievecrawl.sieve.BloomSizing;
import io.sievecrawl.sieve.FailureLog;
import io.sievecrawl.sieve.CapacityMonitor;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.SieveStats;
import io.sievecrawl.sieve.TaskCodec;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Frontier} kept in an append-only log on disk, a queue per key (origin) chained through it: the heap holds
 * the URL filter, two buffers and about 100 bytes per queue, whatever the number of waiting tasks, and a crawl killed
 * at any moment (kill -9, an OutOfMemoryError) resumes from the directory with nothing admitted lost.
 *
 * <p>Open one with {@link #open}: an empty directory starts a new frontier, one that holds a frontier is recovered.
 */
public final class DiskFrontier<T> implements Frontier<T> {
  /*
   * Design notes.
   *
   * 1. One log is the queues and the filter's redo log. Every admitted task is appended as a TASK record with the
   *    next sequence number and its queue's number; completing a claim appends an ACK. Records carry a CRC-32C.
   *    Why one log: a single order makes recovery a simple prefix (the first damaged record ends it), and an
   *    acknowledgement can never be durable while a link its page produced is not, because the links were appended
   *    before it. Waiting tasks are never written again: nothing is rewritten to move a task.
   *
   * 2. Queues. Each TASK record ends in a next-field outside its checksum: the position of the next TASK of its
   *    queue, written (in the buffer, or in the file with one positional write) when that task is appended. The heap
   *    holds per queue only its head, its tail and counts (QueueTable), so handing out a queue's next task is one
   *    read at its head, whatever the other queues hold (Mercator's back queues and BUbiNG's ByteArrayDiskQueues
   *    chain their elements the same way). Queues wait for the scheduler in a line, round robin. Recovery rebuilds
   *    chains and heads in one pass (LogRecovery).
   *
   * 3. Durability. Offers stay in a 256 KB buffer; complete() hands the buffer to the operating system in one
   *    write, so everything acknowledged survives a kill of the process, and a link still in the buffer when the
   *    process dies is safe because its page was not acknowledged and will be fetched again. A background thread
   *    forces the log to the device every syncInterval (power cuts) without holding the lock during the fsync.
   *    Next-fields written into older segments are not forced: recovery mends any the disk lost.
   *
   * 4. Filter checkpoints never stall the crawl. Bits only go from 0 to 1, so a filter file written while adds go
   *    on, plus the log's records from a position P read before the write began, is a filter that knows every
   *    admitted URL. The danger is the converse: a bit in the file whose record never reached the log (the
   *    process died between filter.add and the append), which would drop that URL forever when its page is
   *    fetched again. So an offer holds the read side of offerGate from add to append, and the checkpoint, after
   *    writing the file, takes and releases the write side once: every offer that may have put a bit into the
   *    file has then appended its record. The log is forced, then the checkpoint file naming the filter file and
   *    P is replaced atomically. No lock is held while the filter is written.
   *
   * 5. Segments. A segment is deleted when it and every segment before it hold no task still to do, and it lies
   *    before the last checkpoint's P (Segments). A queue that waits long keeps the segment of its oldest task,
   *    and those after it, on disk.
   *
   * 6. Threads. One ReentrantLock guards the writer, the queues, the window and the counters; file reads and
   *    writes to the page cache happen under it (short, bounded by the 256 KB buffer), fsyncs never do. The
   *    filter has its own stripe locks and is added to before this lock is taken.
   *
   * 7. The exact store (FrontierOptions.confirm, fixed at creation). Every admitted URL's 64-bit fingerprint is
   *    kept (SeenRuns): those admitted since the last checkpoint on the heap, older ones in sorted runs on disk.
   *    A "maybe seen" answer of the filter is settled there (Admission). A checkpoint freezes the recent
   *    fingerprints under the write side of offerGate, with the log position P read at the same moment, so that
   *    every frozen fingerprint's TASK record lies before P and every later one at or after it; the frozen ones
   *    become a run, and the checkpoint names the runs with P. Recovery opens the named runs and adds the
   *    fingerprints of the TASK records from P on: the store ends as exact as the log. When the recent
   *    fingerprints pass RECENT_LIMIT a checkpoint is started early, which bounds the heap they take.
   */
  /*
   * 8. Growth (FrontierOptions.grow, with a store). When the filter's estimate passes n, the capacity monitor asks
   *    for a filter twice the URLs seen; one is built on the background thread while the crawl goes on. Under the
   *    checkpoint monitor no freeze runs, so the settled fingerprints are fixed: they go into the new filter without
   *    a lock; then, under the write side of offerGate (no admission runs), the recent ones do and the new filter
   *    replaces the old. It then holds every admitted fingerprint, which a "new" answer relies on (note 7). A
   *    checkpoint writes it at its new n at once.
   */
  /** Recent fingerprints (about 24 bytes each on the heap) at which a checkpoint starts early. */
  static final long RECENT_LIMIT = 1 << 20;

  private static final Logger log = LoggerFactory.getLogger(DiskFrontier.class);

  private final Path dir;
  private final FailureLog syncFailures; // a full disk fails these on every timer tick: said once a minute
  private final FailureLog checkpointFailures;
  private final TaskCodec<T> codec;
  private final Function<? super T, ? extends CharSequence> key;
  private final Function<? super T, String> queueKey;
  private volatile Admission admission; // replaced only while offerGate's write side is held (note 8)
  private final SeenRuns seen; // null: the filter decides alone
  private final AtomicBoolean earlyCheckpoint = new AtomicBoolean();
  private final AtomicBoolean growing = new AtomicBoolean();
  private final FrontierOptions.ResizeListener resized;
  private final Ticker ticker;
  private volatile CapacityMonitor capacity;
  private final ReentrantReadWriteLock offerGate = new ReentrantReadWriteLock();
  private final ReentrantLock lock = new ReentrantLock();
  private final LongAdder dropped = new LongAdder();
  private final Object checkpointing = new Object();
  private final ScheduledExecutorService syncer;

  // Guarded by lock.
  private final LogWriter writer;
  private final SegmentFiles files;
  private final Segments segments;
  private final AckWindow acks;
  private final QueueTable queues;
  private final Map<Long, InFlight> inFlight = new HashMap<>();
  private long nextSeq;
  private long pending; // tasks not acknowledged: waiting or in flight
  private long admitted;
  private boolean stopped;
  private boolean closed;
  private IOException failure; // the first write failure; the frontier is unusable after it
  private LogPosition redoFrom; // of the last checkpoint
  private String filterFile; // of the last checkpoint
  private long droppedBefore; // duplicates dropped before this run
  private long rescuedBefore; // URLs rescued from false positives before this run

  private record InFlight(QueueTable.Queue queue, long position) {}

  private DiskFrontier(Path dir, FrontierOptions options, TaskCodec<T> codec,
      Function<? super T, ? extends CharSequence> key, Function<? super T, String> queueKey, LogRecovery recovered,
      Ticker ticker) {
    this.dir = dir;
    this.syncFailures = new FailureLog(log, "cannot force the frontier log in " + dir + " to disk", ticker);
    this.checkpointFailures = new FailureLog(log, "cannot write a frontier checkpoint in " + dir, ticker);
    this.codec = codec;
    this.key = key;
    this.queueKey = queueKey;
    this.admission = recovered.admission;
    this.seen = recovered.seen;
    this.resized = options.resized();
    this.ticker = ticker;
    this.capacity = seen != null && options.grow()
        ? new CapacityMonitor(admission.filter(), options.capacityKey(), this::startGrowth)
        : new CapacityMonitor(admission.filter(), options.capacityKey(), seen != null);
    this.writer = recovered.writer;
    this.files = recovered.files;
    this.segments = recovered.segments;
    this.acks = recovered.acks;
    this.queues = recovered.queues;
    this.nextSeq = recovered.nextSeq;
    this.pending = recovered.pending;
    this.admitted = recovered.admitted;
    this.redoFrom = recovered.checkpoint.redoFrom();
    this.filterFile = recovered.checkpoint.filterFile();
    this.droppedBefore = recovered.checkpoint.duplicatesDropped();
    this.rescuedBefore = recovered.checkpoint.rescued();
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
   * @param expectedUrls n of the URL filter; a frontier that exists must have been created with the same n and p,
   *     unless it keeps an exact store, from which its filter is then rebuilt at the new n and p
   * @param fpp p of the URL filter
   * @param key the URL a task is sieved on
   * @param queueKey the queue a task joins (its origin)
   * @param ticker the crawl's ticker: how long recovery took, how often a failing sync or checkpoint is logged
   * @throws FrontierCorruptException if the directory holds damaged state, a log shorter than its checkpoint says,
   *     a frontier of another format version, or one created with another n or p; the message names the file
   */
  public static <T> DiskFrontier<T> open(Path dir, long expectedUrls, double fpp, TaskCodec<T> codec,
      Function<? super T, ? extends CharSequence> key, Function<? super T, String> queueKey,
      FrontierOptions options, Ticker ticker) throws IOException {
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(queueKey, "queueKey");
    Objects.requireNonNull(ticker, "ticker");
    Files.createDirectories(dir);
    LogRecovery recovered = LogRecovery.from(dir, expectedUrls, fpp, codec, key, queueKey, options, ticker);
    DiskFrontier<T> frontier = new DiskFrontier<>(dir, options, codec, key, queueKey, recovered, ticker);
    if (recovered.resized) {
      frontier.checkpoint(); // the checkpoint must name a filter of the new n and p before anything else is added
    }
    return frontier;
  }

  @Override
  public boolean offer(T task) {
    CharSequence url = key.apply(Objects.requireNonNull(task, "task"));
    offerGate.readLock().lock();
    try {
      if (!admission.admit(url)) {
        dropped.increment();
        return false;
      }
      byte[] bytes = codec.encode(task);
      String queue = queueKey.apply(task);
      lock.lock();
      try {
        checkUsable();
        append(queues.getOrCreate(queue), bytes);
      } catch (IOException e) {
        throw failed(e);
      } finally {
        lock.unlock();
      }
    } finally {
      offerGate.readLock().unlock();
    }
    capacity.check();
    if (seen != null && seen.recentCount() >= RECENT_LIMIT && earlyCheckpoint.compareAndSet(false, true)) {
      syncer.execute(this::checkpointQuietly);
    }
    return true;
  }

  /** Appends a task to {@code q}'s chain. */
  private void append(QueueTable.Queue q, byte[] bytes) throws IOException {
    long seq = nextSeq++;
    long nextField = writer.appendTask(seq, q.id, bytes);
    long position = nextField - LogFormat.recordBytes(LogFormat.TASK, bytes.length) + LogFormat.NEXT_BYTES;
    segments.note(writer.segment(), writer.firstSeq());
    segments.added(writer.segment());
    if (q.tail != 0) {
      writer.patchNext(q.tail, position);
    }
    q.tail = nextField;
    if (q.waiting == 0) {
      q.head = position;
    }
    queues.added(q);
    pending++;
    admitted++;
  }

  /**
   * Asked by the capacity monitor when the estimate passes a level: starts building a filter for {@code newN} URLs
   * if the heap has room for it beside the old one, and says what it did, for the warning.
   */
  private String startGrowth(long newN) {
    BloomFilter old = admission.filter();
    long bytes;
    try {
      bytes = BloomSizing.of(newN, old.targetFpp()).bits() / 8;
    } catch (IllegalArgumentException e) {
      return "Not growing it: " + e.getMessage() + ".";
    }
    Runtime runtime = Runtime.getRuntime();
    long free = runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
    String size = String.format(Locale.ROOT, "n = %,d (%,.1f MB)", newN, bytes / 1e6);
    if (bytes > free / 2) {
      return String.format(Locale.ROOT, "Not growing it to %s: the heap has %,.1f MB free; resume with a larger"
          + " heap and -n %d.", size, free / 1e6, newN);
    }
    if (!growing.compareAndSet(false, true)) {
      return "A larger filter is being built already.";
    }
    syncer.execute(() -> growQuietly(newN));
    return "Growing it to " + size + " from the exact store, in the background.";
  }

  private void growQuietly(long newN) {
    try {
      grow(newN);
    } catch (IOException | RuntimeException e) {
      log.warn("could not grow the URL filter of the frontier in {}: {}", dir, e.getMessage());
    } finally {
      growing.set(false);
    }
  }

  /** Replaces the filter by one of capacity {@code newN} holding every admitted URL (note 8), and checkpoints it. */
  void grow(long newN) throws IOException {
    long started = ticker.nanos();
    BloomFilter grown;
    long[] urls = new long[1]; // the store's exact count, not the new filter's estimate of it
    synchronized (checkpointing) {
      if (closed) {
        return;
      }
      BloomFilter old = admission.filter();
      grown = BloomFilter.create(BloomSizing.of(newN, old.targetFpp()), old.seed(), BloomFilter.Hashing.FINGERPRINT);
      LongConsumer add = fingerprint -> {
        grown.addFingerprint(fingerprint);
        urls[0]++;
      };
      seen.forEachSettled(add);
      offerGate.writeLock().lock();
      try {
        seen.forEachRecent(add);
        admission = admission.withFilter(grown);
        capacity = new CapacityMonitor(grown, capacity);
      } finally {
        offerGate.writeLock().unlock();
      }
    }
    checkpoint();
    lock.lock();
    try {
      if (closed) {
        return; // closed before the checkpoint: the next run rebuilds the filter at the size its owner recorded
      }
    } finally {
      lock.unlock();
    }
    log.info("frontier in {}: grew the URL filter to n = {} in {} ms; it holds the {} URLs admitted then", dir,
        String.format(Locale.ROOT, "%,d", newN), (ticker.nanos() - started) / 1_000_000,
        String.format(Locale.ROOT, "%,d", urls[0]));
    resized.resized(newN, grown.targetFpp());
  }

  @Override
  public String nextQueue() {
    lock.lock();
    try {
      checkUsable();
      if (stopped) {
        return null;
      }
      QueueTable.Queue q = queues.checkOut();
      return q == null ? null : q.key;
    } catch (IOException e) {
      throw failed(e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Claim<T> poll(String queue) {
    lock.lock();
    try {
      checkUsable();
      QueueTable.Queue q = queues.get(queue);
      if (stopped || q == null || !q.checkedOut || q.waiting == 0) {
        return null;
      }
      while (true) {
        long position = q.head;
        if (position == 0) {
          throw new FrontierCorruptException(dir + ": queue " + q.id + " (" + q.key + ") should hold " + q.waiting
              + " more tasks, but its chain ends");
        }
        writer.flushThrough(position);
        SegmentFiles.TaskRecord record = files.readTask(position);
        if (record.queue != q.id) {
          throw new FrontierCorruptException(dir + ": " + LogFormat.describe(position) + " holds a task of queue "
              + record.queue + ", but queue " + q.id + " (" + q.key + ") leads there");
        }
        q.head = record.next;
        if (acks.isAcknowledged(record.seq)) {
          continue; // done out of order before a restart
        }
        T task = codec.decode(record.bytes, record.taskOffset, record.taskLength);
        queues.taken(q);
        q.claimed(position);
        inFlight.put(record.seq, new InFlight(q, position));
        return new Claim<>(task, record.seq);
      }
    } catch (IOException e) {
      throw failed(e);
    } catch (IllegalArgumentException e) {
      throw failed(new FrontierCorruptException(dir + ": a task in queue " + queue + " cannot be read: "
          + e.getMessage()));
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void releaseQueue(String queue) {
    lock.lock();
    try {
      QueueTable.Queue q = queues.get(queue);
      if (q == null || !q.checkedOut) {
        throw new IllegalStateException("queue '" + queue + "' is not checked out");
      }
      queues.release(q);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void complete(Claim<T> claim) {
    lock.lock();
    try {
      checkUsable();
      InFlight done = inFlight.remove(claim.id());
      if (done == null || !acks.acknowledge(claim.id())) {
        throw new IllegalStateException("claim " + claim.id() + " is not in flight");
      }
      QueueTable.Queue q = done.queue();
      q.released(done.position());
      writer.appendAck(claim.id(), q.id, q.resumePosition(), nextSeq);
      segments.note(writer.segment(), writer.firstSeq());
      writer.flush(); // an acknowledged page is never fetched again, even after a kill
      segments.acknowledgedAt(done.position());
      pending--;
      queues.forgetIfSpent(q);
    } catch (IOException e) {
      throw failed(e);
    } finally {
      lock.unlock();
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
    return admission.filter();
  }

  /** Whether an exact store confirms the filter's "maybe seen" answers. */
  public boolean isConfirmed() {
    return seen != null;
  }

  @Override
  public SieveStats stats() {
    long queued;
    long working;
    long admittedNow;
    long holding;
    lock.lock();
    try {
      working = inFlight.size();
      queued = pending - working;
      admittedNow = admitted;
      holding = queues.holding();
    } finally {
      lock.unlock();
    }
    Admission a = admission;
    return SieveStats.of(admittedNow, droppedBefore + dropped.sum(), queued, working, holding, a.filter(),
        capacity.warnings(), a.isConfirmed(), rescuedBefore + a.rescued());
  }

  /** Bytes the frontier's files take on disk now (log segments and filter checkpoint). */
  public long diskBytes() throws IOException {
    try (Stream<Path> list = Files.list(dir)) {
      long total = 0;
      for (Path file : list.toList()) {
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
      long droppedAt;
      long rescuedAt;
      if (seen != null && seen.hasUnwrittenFrozen()) {
        seen.writeFrozen(); // a checkpoint that failed after its freeze: its fingerprints lie before this one's P too
      }
      if (seen != null) {
        offerGate.writeLock().lock(); // no admission runs: the frozen fingerprints are those before P (note 7)
      }
      lock.lock();
      try {
        if (closed) {
          return;
        }
        checkUsable();
        writer.flush();
        position = writer.flushedEnd();
        admittedAt = admitted;
        droppedAt = droppedBefore + dropped.sum();
        rescuedAt = rescuedBefore + admission.rescued();
        if (seen != null) {
          seen.freeze();
        }
      } finally {
        lock.unlock();
        if (seen != null) {
          offerGate.writeLock().unlock();
        }
      }
      BloomFilter filter = admission.filter();
      String name = FilterFiles.name(position, filter.sizing());
      BloomFilterFile.write(filter, dir.resolve(name), true);
      offerGate.writeLock().lock(); // wait out every offer that may have put bits in the file (note 4)
      offerGate.writeLock().unlock();
      List<CheckpointFile.RunId> runs = seen == null ? List.of() : seen.writeFrozen();
      earlyCheckpoint.set(false);
      sync();
      BloomSizing sizing = filter.sizing();
      new CheckpointFile(sizing.expectedInsertions(), sizing.targetFpp(), filter.seed(), name, position, admittedAt,
          droppedAt, seen != null, runs, rescuedAt).write(dir);
      if (seen != null) {
        seen.deleteRetired();
      }
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
    List<Long> obsolete;
    lock.lock();
    try {
      obsolete = segments.takeObsolete(Math.min(redoFrom.segment(), writer.segment()));
      for (long number : obsolete) {
        files.forget(number);
      }
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
      syncFailures.succeeded();
    } catch (IOException | RuntimeException e) {
      syncFailures.failed(String.valueOf(e.getMessage()));
    }
  }

  private void checkpointQuietly() {
    try {
      checkpoint();
      checkpointFailures.succeeded();
    } catch (IOException | RuntimeException e) {
      checkpointFailures.failed(String.valueOf(e.getMessage()));
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
    syncer.shutdown(); // the timers stop; a growth or checkpoint under way ends first (an interrupt would cut it)
    try {
      if (!syncer.awaitTermination(1, TimeUnit.MINUTES)) {
        syncer.shutdownNow();
      }
    } catch (InterruptedException e) {
      syncer.shutdownNow();
      Thread.currentThread().interrupt();
    }
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
          files.close();
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
}

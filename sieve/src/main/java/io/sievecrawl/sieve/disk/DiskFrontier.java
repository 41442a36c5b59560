package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.Admission;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.CapacityMonitor;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.FailureLog;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.SieveStats;
import io.sievecrawl.sieve.TaskCodec;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
   *
   * The jobs live apart: QueueLog keeps the queues (notes 1, 2, 3, 5, 6), AdmissionGate the filter, the exact store
   * and the gate (notes 4, 7), FilterCheckpoints writes checkpoints (notes 4, 5, 7), FilterGrowth grows the filter
   * (note 8). This class wires them and runs the background thread.
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
  private final AdmissionGate gate;
  private final QueueLog<T> queues;
  private final FilterCheckpoints checkpoints;
  private final FilterGrowth growth;
  private final ScheduledExecutorService syncer;

  private DiskFrontier(Path dir, FrontierOptions options, TaskCodec<T> codec,
      Function<? super T, ? extends CharSequence> key, Function<? super T, String> queueKey, LogRecovery recovered,
      Ticker ticker) {
    this.dir = dir;
    this.syncFailures = new FailureLog(log, "cannot force the frontier log in " + dir + " to disk", ticker);
    this.checkpointFailures = new FailureLog(log, "cannot write a frontier checkpoint in " + dir, ticker);
    this.codec = codec;
    this.key = key;
    this.queueKey = queueKey;
    this.gate = new AdmissionGate(recovered);
    this.queues = new QueueLog<>(dir, codec, recovered);
    this.checkpoints = new FilterCheckpoints(dir, gate, queues, recovered.checkpoint);
    this.syncer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "frontier-sync");
      t.setDaemon(true);
      return t;
    });
    this.growth = new FilterGrowth(dir, gate, checkpoints, queues, options.resized(), syncer, ticker);
    boolean confirmed = gate.seen() != null;
    String capacityKey = options.capacityKey();
    gate.watch(!confirmed ? new CapacityMonitor(gate.filter(), capacityKey, false)
        : options.grow() ? new CapacityMonitor(gate.filter(), capacityKey, growth::start)
        : new CapacityMonitor(gate.filter(), capacityKey, // a resume with a larger n rebuilds it from the exact store
            suggested -> "Resume with " + capacityKey + " " + String.format(java.util.Locale.ROOT, "%,d", suggested)
                + " or more to rebuild the filter larger."));
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
    gate.enter();
    try {
      if (!gate.admit(url)) {
        return false;
      }
      queues.append(queueKey.apply(task), codec.encode(task));
    } finally {
      gate.leave();
    }
    gate.capacity().check();
    SeenRuns seen = gate.seen();
    if (seen != null && seen.recentCount() >= RECENT_LIMIT && checkpoints.claimEarly()) {
      syncer.execute(this::checkpointQuietly);
    }
    return true;
  }

  /** Replaces the filter by one of capacity {@code newN} holding every admitted URL (note 8), and checkpoints it. */
  void grow(long newN) throws IOException {
    growth.grow(newN);
  }

  @Override
  public String nextQueue() {
    return queues.nextQueue();
  }

  @Override
  public Claim<T> poll(String queue) {
    return queues.poll(queue);
  }

  @Override
  public void releaseQueue(String queue) {
    queues.releaseQueue(queue);
  }

  @Override
  public void complete(Claim<T> claim) {
    queues.complete(claim.id());
  }

  @Override
  public boolean isFinished() {
    return queues.isFinished();
  }

  @Override
  public void stop() {
    queues.stop();
  }

  /** The URL filter, for tests and statistics. */
  public BloomFilter filter() {
    return gate.filter();
  }

  /** Whether an exact store confirms the filter's "maybe seen" answers. */
  public boolean isConfirmed() {
    return gate.seen() != null;
  }

  @Override
  public SieveStats stats() {
    QueueLog.Counts counts = queues.counts();
    Admission a = gate.admission();
    return SieveStats.of(counts.admitted(), gate.dropped(), counts.queued(), counts.working(), counts.holding(),
        a.filter(), gate.capacity().warnings(), a.isConfirmed(), gate.rescued());
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
    queues.sync();
  }

  /**
   * Writes the URL filter and a checkpoint naming it, then deletes the segments no longer needed. Adds go on while
   * the filter is written (see the design notes).
   */
  @Override
  public void checkpoint() throws IOException {
    checkpoints.write();
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
    synchronized (checkpoints.monitor()) {
      queues.close();
    }
  }

  @Override
  public String toString() {
    return "DiskFrontier[" + dir + ", " + stats() + "]";
  }
}

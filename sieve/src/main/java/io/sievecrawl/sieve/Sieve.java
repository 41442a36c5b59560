package io.sievecrawl.sieve;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * An in-memory {@link Frontier}: a FIFO queue gated by a {@link BloomFilter}. A URL is admitted at most once, and
 * an admitted task is handed to exactly one taker.
 *
 * <p>The queue lives on the heap and is lost with the process: use it for tests and small crawls, and
 * {@link io.sievecrawl.sieve.disk.DiskFrontier} for crawls that must outgrow the heap or survive a crash.
 *
 * <p>A URL the filter wrongly believes seen (a false positive, probability about p per new URL while the filter
 * is within capacity) is dropped and counted among {@link SieveStats#duplicatesDropped()}. When the filter's
 * estimated size passes its capacity n, and again at 2n, 4n, ..., one WARN is logged naming the setting to raise.
 */
public final class Sieve<T> implements Frontier<T> {
  /*
   * Design notes.
   *
   * 1. Admission is the filter's atomic add(): of racing offers of one new URL exactly one wins and enqueues
   *    it. The filter's lock is released before the queue lock is taken, so the two never nest.
   * 2. One ReentrantLock guards the queue and the in-flight count; poll() moves a task from the queue to
   *    "in flight" under that lock, so "queue empty and nothing in flight" can be read atomically and no task
   *    is ever between the two states. ReentrantLock rather than a monitor so that virtual threads waiting
   *    in take() unmount from their carrier.
   * 3. Waiters in take() are woken by offer and requeue (a task is ready) and by complete() and stop() (the crawl
   *    may be over).
   */

  /** The setting named by the capacity warning when the caller does not name one. */
  public static final String DEFAULT_CAPACITY_KEY = "n (expected URLs)";

  private final BloomFilter filter;
  private final Function<? super T, ? extends CharSequence> key;
  private final CapacityMonitor capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Claim<T>> queue = new ArrayDeque<>(); // guarded by lock
  private long nextId; // guarded by lock
  private int inFlight; // guarded by lock
  private boolean stopped; // guarded by lock
  private final LongAdder admitted = new LongAdder();
  private final LongAdder dropped = new LongAdder();

  private Sieve(BloomFilter filter, Function<? super T, ? extends CharSequence> key, String capacityKey) {
    this.filter = Objects.requireNonNull(filter, "filter");
    this.key = Objects.requireNonNull(key, "key");
    this.capacity = new CapacityMonitor(filter, Objects.requireNonNull(capacityKey, "capacityKey"));
  }

  /** A sieve of URL strings whose filter holds {@code expectedUrls} at false-positive rate {@code fpp}. */
  public static Sieve<String> forUrls(long expectedUrls, double fpp) {
    return over(BloomFilter.create(expectedUrls, fpp), url -> url, DEFAULT_CAPACITY_KEY);
  }

  /**
   * A sieve of tasks over {@code filter}, which may already hold URLs (say, restored from a checkpoint). A task
   * is admitted when {@code url} of it is new; the capacity warning tells the user to raise {@code capacityKey}.
   */
  public static <T> Sieve<T> over(
      BloomFilter filter, Function<? super T, ? extends CharSequence> url, String capacityKey) {
    return new Sieve<>(filter, url, capacityKey);
  }

  @Override
  public boolean offer(T task) {
    Objects.requireNonNull(task, "task");
    if (!filter.add(key.apply(task))) {
      dropped.increment();
      return false;
    }
    admitted.increment();
    lock.lock();
    try {
      queue.addLast(new Claim<>(task, nextId++));
      changed.signal();
    } finally {
      lock.unlock();
    }
    capacity.check();
    return true;
  }

  /**
   * The oldest queued task, waiting up to {@code timeout} for one; {@code null} if none came in time, the sieve is
   * {@linkplain #isFinished() finished}, or it was {@linkplain #stop() stopped}.
   */
  public Claim<T> take(long timeout, TimeUnit unit) throws InterruptedException {
    long nanos = unit.toNanos(timeout);
    lock.lockInterruptibly();
    try {
      while (queue.isEmpty() || stopped) {
        if (stopped || inFlight == 0 || nanos <= 0) {
          return null;
        }
        nanos = changed.awaitNanos(nanos);
      }
      return takeLocked();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Claim<T> poll() {
    lock.lock();
    try {
      return queue.isEmpty() || stopped ? null : takeLocked();
    } finally {
      lock.unlock();
    }
  }

  private Claim<T> takeLocked() {
    inFlight++;
    return queue.pollFirst();
  }

  @Override
  public void complete(Claim<T> claim) {
    lock.lock();
    try {
      releaseLocked();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public long requeue(Claim<T> claim) {
    lock.lock();
    try {
      releaseLocked();
      long id = nextId++;
      queue.addLast(new Claim<>(claim.task(), id));
      changed.signal();
      return id;
    } finally {
      lock.unlock();
    }
  }

  private void releaseLocked() {
    if (inFlight == 0) {
      throw new IllegalStateException("more claims completed or requeued than handed out");
    }
    inFlight--;
    if (inFlight == 0) {
      changed.signalAll();
    }
  }

  @Override
  public boolean isFinished() {
    lock.lock();
    try {
      return stopped || (queue.isEmpty() && inFlight == 0);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void stop() {
    lock.lock();
    try {
      stopped = true;
      changed.signalAll();
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
    lock.lock();
    try {
      queued = queue.size();
      working = inFlight;
    } finally {
      lock.unlock();
    }
    return SieveStats.of(admitted.sum(), dropped.sum(), queued, working, filter, capacity.warnings());
  }
}

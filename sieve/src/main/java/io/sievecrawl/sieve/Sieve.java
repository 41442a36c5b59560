package io.sievecrawl.sieve;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A FIFO frontier of URLs gated by a {@link BloomFilter}: a URL is admitted at most once, and an admitted URL is
 * handed to exactly one taker.
 *
 * <p>The queued elements are URLs ({@link #forUrls}) or any task that carries one ({@link #over}, with a function
 * that gives the URL to sieve on), so a crawler can queue a URL together with its depth and referrer.
 *
 * <p>Producers call {@link #push}; workers call {@link #take} (blocking, with a timeout) or {@link #poll}, and
 * {@link #done} once they have finished with a URL they took, after pushing its links. The sieve is
 * {@linkplain #isFinished() finished} when nothing is queued and nothing taken is still being worked on.
 *
 * <p>A URL the filter wrongly believes seen (a false positive, probability about p per new URL while the filter
 * is within capacity) is dropped and counted among {@link SieveStats#duplicatesDropped()}. When the filter's
 * estimated size passes its capacity n, and again at 2n, 4n, ..., one WARN is logged naming the setting to raise.
 */
public final class Sieve<T> {
  /*
   * Design notes.
   *
   * 1. Admission is the filter's atomic add(): of racing pushes of one new URL exactly one wins and enqueues
   *    it. The filter's lock is released before the queue lock is taken, so the two never nest.
   * 2. One ReentrantLock guards the queue and the in-flight count; take() moves a URL from the queue to
   *    "in flight" under that lock, so "queue empty and nothing in flight" can be read atomically and no URL
   *    is ever between the two states. ReentrantLock rather than a monitor so that virtual threads waiting
   *    in take() unmount from their carrier.
   * 3. Waiters in take() are woken by push (a URL is ready) and by done() and stop() (the crawl may be over).
   */

  /** The setting named by the capacity warning when the caller does not name one. */
  public static final String DEFAULT_CAPACITY_KEY = "n (expected URLs)";

  private final BloomFilter filter;
  private final Function<? super T, ? extends CharSequence> key;
  private final CapacityMonitor capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<T> queue = new ArrayDeque<>(); // guarded by lock
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

  /**
   * Offers {@code task}; returns {@code true} if its URL was admitted (never seen before) and the task queued,
   * {@code false} if the filter has seen the URL, or might have (a false positive). Never waits for takers.
   */
  public boolean push(T task) {
    Objects.requireNonNull(task, "task");
    if (!filter.add(key.apply(task))) {
      dropped.increment();
      return false;
    }
    admitted.increment();
    lock.lock();
    try {
      queue.addLast(task);
      changed.signal();
    } finally {
      lock.unlock();
    }
    capacity.check();
    return true;
  }

  /**
   * The oldest queued URL, waiting up to {@code timeout} for one; {@code null} if none came in time, the sieve
   * is {@linkplain #isFinished() finished}, or it was {@linkplain #stop() stopped}. A URL returned is in flight
   * until {@link #done()} is called for it.
   */
  public T take(long timeout, TimeUnit unit) throws InterruptedException {
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

  /** The oldest queued URL without waiting, or {@code null} if none is queued or the sieve was stopped. */
  public T poll() {
    lock.lock();
    try {
      return queue.isEmpty() || stopped ? null : takeLocked();
    } finally {
      lock.unlock();
    }
  }

  private T takeLocked() {
    inFlight++;
    return queue.pollFirst();
  }

  /** Marks one URL returned by {@link #take} or {@link #poll} as finished with; call it after pushing its links. */
  public void done() {
    lock.lock();
    try {
      if (inFlight == 0) {
        throw new IllegalStateException("done() called more often than URLs were taken");
      }
      inFlight--;
      if (inFlight == 0) {
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether nothing is queued and nothing taken is unfinished, or the sieve was stopped. */
  public boolean isFinished() {
    lock.lock();
    try {
      return stopped || (queue.isEmpty() && inFlight == 0);
    } finally {
      lock.unlock();
    }
  }

  /** Stops handing out URLs: takers get {@code null} from now on. Pushes are still admitted and queued. */
  public void stop() {
    lock.lock();
    try {
      stopped = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Removes and returns every queued URL, oldest first (for example, to checkpoint them after a stop). */
  public List<T> drain() {
    lock.lock();
    try {
      List<T> rest = new ArrayList<>(queue);
      queue.clear();
      return rest;
    } finally {
      lock.unlock();
    }
  }

  /** The filter behind the sieve, for its statistics and for checkpoints. */
  public BloomFilter filter() {
    return filter;
  }

  /** A snapshot of the counters. */
  public SieveStats stats() {
    int queued;
    int working;
    lock.lock();
    try {
      queued = queue.size();
      working = inFlight;
    } finally {
      lock.unlock();
    }
    return new SieveStats(admitted.sum(), dropped.sum(), queued, working, filter.expectedInsertions(),
        filter.targetFpp(), filter.bitSize(), filter.bitCount(), filter.approximateElementCount(),
        filter.expectedFpp(), capacity.warnings());
  }
}

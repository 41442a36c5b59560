package io.sievecrawl.sieve;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A FIFO frontier of URLs gated by a {@link BloomFilter}: a URL is admitted at most once, and an admitted URL is
 * handed to exactly one taker.
 *
 * <p>Producers call {@link #push}; workers call {@link #take} (blocking, with a timeout) or {@link #poll}, and
 * {@link #done} once they have finished with a URL they took, after pushing its links. The sieve is
 * {@linkplain #isFinished() finished} when nothing is queued and nothing taken is still being worked on.
 *
 * <p>A URL the filter wrongly believes seen (a false positive, probability about p per new URL while the filter
 * is within capacity) is dropped and counted among {@link SieveStats#duplicatesDropped()}. When the filter's
 * estimated size passes its capacity n, and again at 2n, 4n, ..., one WARN is logged naming the setting to raise.
 */
public final class Sieve {
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
  private final CapacityMonitor capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<String> queue = new ArrayDeque<>(); // guarded by lock
  private int inFlight; // guarded by lock
  private boolean stopped; // guarded by lock
  private final LongAdder admitted = new LongAdder();
  private final LongAdder dropped = new LongAdder();

  private Sieve(BloomFilter filter, String capacityKey) {
    this.filter = Objects.requireNonNull(filter, "filter");
    this.capacity = new CapacityMonitor(filter, Objects.requireNonNull(capacityKey, "capacityKey"));
  }

  /** A sieve whose filter holds {@code expectedUrls} at false-positive rate {@code fpp}. */
  public static Sieve create(long expectedUrls, double fpp) {
    return over(BloomFilter.create(expectedUrls, fpp), DEFAULT_CAPACITY_KEY);
  }

  /**
   * A sieve over {@code filter}, which may already hold URLs (say, restored from a checkpoint); the capacity
   * warning tells the user to raise {@code capacityKey}.
   */
  public static Sieve over(BloomFilter filter, String capacityKey) {
    return new Sieve(filter, capacityKey);
  }

  /**
   * Offers {@code url}; returns {@code true} if it was admitted (never seen before) and queued, {@code false} if
   * the filter has seen it, or might have (a false positive). Never blocks on other pushes or takes.
   */
  public boolean push(String url) {
    Objects.requireNonNull(url, "url");
    if (!filter.add(url)) {
      dropped.increment();
      return false;
    }
    admitted.increment();
    lock.lock();
    try {
      queue.addLast(url);
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
  public String take(long timeout, TimeUnit unit) throws InterruptedException {
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
  public String poll() {
    lock.lock();
    try {
      return queue.isEmpty() || stopped ? null : takeLocked();
    } finally {
      lock.unlock();
    }
  }

  private String takeLocked() {
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
  public List<String> drain() {
    lock.lock();
    try {
      List<String> rest = new ArrayList<>(queue);
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

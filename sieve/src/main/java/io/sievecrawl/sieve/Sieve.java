package io.sievecrawl.sieve;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * An in-memory {@link Frontier}: a FIFO queue per key gated by a {@link BloomFilter}. A URL is admitted at most once,
 * and an admitted task is handed to exactly one taker.
 *
 * <p>The queues live on the heap and are lost with the process: use it for tests and small crawls, and
 * {@link io.sievecrawl.sieve.disk.DiskFrontier} for crawls that must outgrow the heap or survive a crash.
 *
 * <p>Over a filter alone, a URL the filter wrongly believes seen (a false positive, probability about p per new URL
 * while the filter is within capacity) is dropped and counted among {@link SieveStats#duplicatesDropped()}. Over a
 * {@linkplain Admission#confirmed confirmed} filter, such a URL is admitted after all and counted as rescued. When
 * the filter's estimated size passes its capacity n, and again at 2n, 4n, ..., one WARN is logged naming the setting
 * to raise.
 */
public final class Sieve<T> implements Frontier<T> {
  /*
   * Design notes.
   *
   * 1. Admission (the filter's atomic add(), or the exact store's atomic addRecent()) decides: of racing offers of
   *    one new URL exactly one wins and enqueues it. Its locks are released before the queue lock is taken, so they
   *    never nest.
   * 2. One ReentrantLock guards the queues, the line and the counters; poll() moves a task from its queue to
   *    "in flight" under that lock, so "nothing waits and nothing is in flight" can be read atomically.
   */

  /** The setting named by the capacity warning when the caller does not name one. */
  public static final String DEFAULT_CAPACITY_KEY = "n (expected URLs)";

  private final Admission admission;
  private final Function<? super T, ? extends CharSequence> key;
  private final Function<? super T, String> queueKey;
  private final CapacityMonitor capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, Queue<T>> queues = new HashMap<>(); // guarded by lock; those holding tasks or checked out
  private final ArrayDeque<Queue<T>> line = new ArrayDeque<>(); // guarded by lock
  private long nextId; // guarded by lock
  private long waiting; // guarded by lock
  private long inFlight; // guarded by lock
  private boolean stopped; // guarded by lock
  private final LongAdder admitted = new LongAdder();
  private final LongAdder dropped = new LongAdder();

  private static final class Queue<T> {
    final String key;
    final ArrayDeque<Claim<T>> tasks = new ArrayDeque<>();
    boolean checkedOut;
    boolean inLine;

    Queue(String key) {
      this.key = key;
    }
  }

  private Sieve(Admission admission, Function<? super T, ? extends CharSequence> key,
      Function<? super T, String> queueKey, String capacityKey) {
    this.admission = Objects.requireNonNull(admission, "admission");
    this.key = Objects.requireNonNull(key, "key");
    this.queueKey = Objects.requireNonNull(queueKey, "queueKey");
    this.capacity = new CapacityMonitor(admission.filter(), Objects.requireNonNull(capacityKey, "capacityKey"),
        admission.isConfirmed());
  }

  /**
   * A sieve of URL strings whose filter holds {@code expectedUrls} at false-positive rate {@code fpp}, all in one
   * queue (key {@code ""}).
   */
  public static Sieve<String> forUrls(long expectedUrls, double fpp) {
    return over(BloomFilter.create(expectedUrls, fpp), url -> url, url -> "", DEFAULT_CAPACITY_KEY);
  }

  /**
   * A sieve of tasks over {@code filter}, which may already hold URLs (say, restored from a checkpoint). A task
   * is admitted when {@code url} of it is new, into the queue {@code queueKey} names; the capacity warning tells the
   * user to raise {@code capacityKey}.
   */
  public static <T> Sieve<T> over(BloomFilter filter, Function<? super T, ? extends CharSequence> url,
      Function<? super T, String> queueKey, String capacityKey) {
    return new Sieve<>(Admission.byFilter(filter), url, queueKey, capacityKey);
  }

  /** {@link #over(BloomFilter, Function, Function, String)} with the admission decided by {@code admission}. */
  public static <T> Sieve<T> over(Admission admission, Function<? super T, ? extends CharSequence> url,
      Function<? super T, String> queueKey, String capacityKey) {
    return new Sieve<>(admission, url, queueKey, capacityKey);
  }

  @Override
  public boolean offer(T task) {
    Objects.requireNonNull(task, "task");
    if (!admission.admit(key.apply(task))) {
      dropped.increment();
      return false;
    }
    admitted.increment();
    String k = queueKey.apply(task);
    lock.lock();
    try {
      Queue<T> q = queues.computeIfAbsent(k, Queue::new);
      q.tasks.addLast(new Claim<>(task, nextId++));
      waiting++;
      if (!q.checkedOut && !q.inLine) {
        q.inLine = true;
        line.addLast(q);
      }
    } finally {
      lock.unlock();
    }
    capacity.check();
    return true;
  }

  @Override
  public String nextQueue() {
    lock.lock();
    try {
      if (stopped) {
        return null;
      }
      Queue<T> q = line.pollFirst();
      if (q == null) {
        return null;
      }
      q.inLine = false;
      q.checkedOut = true;
      return q.key;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Claim<T> poll(String queue) {
    lock.lock();
    try {
      Queue<T> q = queues.get(queue);
      if (stopped || q == null || !q.checkedOut || q.tasks.isEmpty()) {
        return null;
      }
      waiting--;
      inFlight++;
      return q.tasks.pollFirst();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void releaseQueue(String queue) {
    lock.lock();
    try {
      Queue<T> q = queues.get(queue);
      if (q == null || !q.checkedOut) {
        throw new IllegalStateException("queue '" + queue + "' is not checked out");
      }
      q.checkedOut = false;
      if (q.tasks.isEmpty()) {
        queues.remove(queue);
      } else {
        q.inLine = true;
        line.addLast(q);
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void complete(Claim<T> claim) {
    lock.lock();
    try {
      if (inFlight == 0) {
        throw new IllegalStateException("more claims completed than handed out");
      }
      inFlight--;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean isFinished() {
    lock.lock();
    try {
      return stopped || (waiting == 0 && inFlight == 0);
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

  @Override
  public SieveStats stats() {
    long queued;
    long working;
    long holding = 0;
    lock.lock();
    try {
      queued = waiting;
      working = inFlight;
      for (Queue<T> q : queues.values()) {
        holding += q.tasks.isEmpty() ? 0 : 1;
      }
    } finally {
      lock.unlock();
    }
    return SieveStats.of(admitted.sum(), dropped.sum(), queued, working, holding, admission.filter(),
        capacity.warnings(), admission.isConfirmed(), admission.rescued());
  }
}

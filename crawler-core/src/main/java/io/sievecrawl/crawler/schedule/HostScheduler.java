package io.sievecrawl.crawler.schedule;

import io.sievecrawl.sieve.Sieve;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Hands workers tasks from a {@link Sieve} in an order that is polite per host and never lets one host hold up
 * the others.
 *
 * <p>Tasks taken from the sieve wait in per-host queues. A host is <em>ready</em> when it has a waiting task, fewer
 * than {@code hostConcurrency} tasks in flight, and its next start time has come (the previous start plus its
 * delay, or the end of a pause after 429/503 or an unreachable robots.txt). {@link #acquire} returns a task of the
 * host that became ready first; while none is ready it keeps moving tasks from the sieve into host queues, so a
 * slow or paused host's backlog never blocks a worker while another host has work.
 *
 * <p>A task stays "in flight" for the sieve from the moment it leaves the sieve until {@link #complete}, so the
 * sieve's {@link Sieve#isFinished()} also covers tasks waiting in host queues or for a retry.
 */
public final class HostScheduler<T> {
  /*
   * Concurrency: one ReentrantLock guards every host queue, the ready heap and the counters. No I/O happens under
   * it; the sieve's own locks are taken inside it (never the other way round), so the order is fixed.
   * Workers wait on one condition, signalled when a task is offered, a lease is released or the scheduler stops;
   * they also wake when the earliest host becomes ready.
   */
  private static final int MAX_PULL_PER_ACQUIRE = 10_000;
  private static final long IDLE_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  private final Sieve<T> sieve;
  private final Function<T, String> hostOf;
  private final int hostConcurrency;
  private final long baseDelayNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<String, HostQueue<T>> hosts = new HashMap<>();
  private final PriorityQueue<HostQueue<T>> ready =
      new PriorityQueue<>((a, b) -> Long.compare(a.nextStart - b.nextStart, 0));
  private boolean stopped;
  private int waitingTasks;

  /** A task handed to a worker, with the host it belongs to. */
  public record Lease<T>(T task, String host) {}

  private static final class HostQueue<T> {
    final String host;
    final ArrayDeque<T> tasks = new ArrayDeque<>();
    int inFlight;
    long nextStart;
    long delayNanos;
    boolean queued; // in the ready heap

    HostQueue(String host, long delayNanos, long now) {
      this.host = host;
      this.delayNanos = delayNanos;
      this.nextStart = now;
    }
  }

  /**
   * @param hostOf the politeness key of a task (its host name)
   * @param hostConcurrency tasks in flight at once per host
   * @param delay least time between the starts of two tasks of one host
   */
  public HostScheduler(Sieve<T> sieve, Function<T, String> hostOf, int hostConcurrency, Duration delay) {
    this.sieve = sieve;
    this.hostOf = hostOf;
    this.hostConcurrency = hostConcurrency;
    this.baseDelayNanos = delay.toNanos();
  }

  /** Pushes {@code task} through the sieve; returns whether it was admitted. Wakes a waiting worker if so. */
  public boolean offer(T task) {
    if (!sieve.push(task)) {
      return false;
    }
    lock.lock();
    try {
      changed.signal();
    } finally {
      lock.unlock();
    }
    return true;
  }

  /**
   * The next task whose host is ready, waiting up to {@code timeout}; {@code null} when the crawl is finished,
   * the scheduler stopped, or the time ran out.
   */
  public Lease<T> acquire(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    lock.lockInterruptibly();
    try {
      while (true) {
        if (stopped) {
          return null;
        }
        long now = System.nanoTime();
        pullFromSieve(now);
        HostQueue<T> head = ready.peek();
        if (head != null && head.nextStart - now <= 0) {
          return lease(ready.poll(), now);
        }
        if (waitingTasks == 0 && sieve.isFinished()) {
          return null;
        }
        long wait = Math.min(deadline - now, head == null ? IDLE_RECHECK_NANOS : head.nextStart - now);
        if (deadline - now <= 0) {
          return null;
        }
        changed.awaitNanos(Math.max(wait, 1));
      }
    } finally {
      lock.unlock();
    }
  }

  private void pullFromSieve(long now) {
    for (int i = 0; i < MAX_PULL_PER_ACQUIRE; i++) {
      HostQueue<T> head = ready.peek();
      if (head != null && head.nextStart - now <= 0) {
        return;
      }
      T task = sieve.poll();
      if (task == null) {
        return;
      }
      enqueue(task, now, false);
    }
  }

  private void enqueue(T task, long now, boolean first) {
    String host = hostOf.apply(task);
    HostQueue<T> q = hosts.computeIfAbsent(host, h -> new HostQueue<>(h, baseDelayNanos, now));
    if (first) {
      q.tasks.addFirst(task);
    } else {
      q.tasks.addLast(task);
    }
    waitingTasks++;
    requeue(q);
  }

  private void requeue(HostQueue<T> q) {
    if (!q.queued && !q.tasks.isEmpty() && q.inFlight < hostConcurrency) {
      ready.add(q);
      q.queued = true;
    }
  }

  private Lease<T> lease(HostQueue<T> q, long now) {
    q.queued = false;
    T task = q.tasks.pollFirst();
    waitingTasks--;
    q.inFlight++;
    q.nextStart = now + q.delayNanos;
    requeue(q);
    return new Lease<>(task, q.host);
  }

  /** The worker is done with the lease's task: the sieve may count it finished. */
  public void complete(Lease<T> lease) {
    lock.lock();
    try {
      HostQueue<T> q = hosts.get(lease.host());
      q.inFlight--;
      requeue(q);
      sieve.done();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The task goes back to the front of its host's queue, to be tried again no earlier than {@code after} from
   * now; the whole host waits that long (a host answering 429 or 503 gets a rest).
   */
  public void retryLater(Lease<T> lease, T retry, Duration after) {
    lock.lock();
    try {
      HostQueue<T> q = hosts.get(lease.host());
      q.inFlight--;
      long now = System.nanoTime();
      q.nextStart = now + Math.max(q.nextStart - now, after.toNanos());
      if (q.queued) { // the heap orders by nextStart: re-insert after changing it
        ready.remove(q);
        q.queued = false;
      }
      q.tasks.addFirst(retry);
      waitingTasks++;
      requeue(q);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Sets the host's least delay between starts, when robots.txt asks for a longer one than configured. */
  public void setHostDelay(String host, Duration crawlDelay) {
    lock.lock();
    try {
      HostQueue<T> q = hosts.get(host);
      long delay = Math.max(baseDelayNanos, crawlDelay.toNanos());
      if (q != null && q.delayNanos != delay) {
        // Called just before the host's current request starts: the next start is a full delay from now.
        long now = System.nanoTime();
        q.nextStart = now + Math.max(q.nextStart - now, delay);
        q.delayNanos = delay;
        if (q.queued) {
          ready.remove(q);
          q.queued = false;
          requeue(q);
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Starts nothing more for {@code host} until {@code pause} from now (a server that asked for a rest). */
  public void pause(String host, Duration pause) {
    lock.lock();
    try {
      HostQueue<T> q = hosts.get(host);
      long now = System.nanoTime();
      if (q != null && q.nextStart - now < pause.toNanos()) {
        q.nextStart = now + pause.toNanos();
        if (q.queued) { // the heap orders by nextStart: re-insert after changing it
          ready.remove(q);
          q.queued = false;
          requeue(q);
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Stops handing out tasks; waiting workers return {@code null}. */
  public void stop() {
    lock.lock();
    try {
      stopped = true;
      sieve.stop();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Tasks waiting in host queues (taken from the sieve, not yet handed out). */
  public int waiting() {
    lock.lock();
    try {
      return waitingTasks;
    } finally {
      lock.unlock();
    }
  }

  /** Removes and returns the tasks still waiting in host queues, then those still in the sieve. */
  public List<T> drain() {
    lock.lock();
    try {
      List<T> rest = new java.util.ArrayList<>();
      for (HostQueue<T> q : hosts.values()) {
        rest.addAll(q.tasks);
        q.tasks.clear();
      }
      ready.clear();
      waitingTasks = 0;
      rest.addAll(sieve.drain());
      return rest;
    } finally {
      lock.unlock();
    }
  }
}

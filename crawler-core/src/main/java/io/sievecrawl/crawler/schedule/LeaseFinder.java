package io.sievecrawl.crawler.schedule;

import io.sievecrawl.crawler.schedule.HostScheduler.Lease;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.Ticker;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Finds the scheduler's next lease: the due origin first in the heap, with origins checked out of the frontier's line
 * while there is room, an origin that has had its turns yielding to one waiting in line, and an origin whose queue
 * turns out empty given back; a worker with nothing due waits ({@link Timekeeper}) until something changes, the next
 * due time, or its deadline. Every call into the frontier is made here or in {@link QueueLanes} through
 * {@link #outside}, with the lock let go when the frontier is shared.
 */
final class LeaseFinder<T> {
  /*
   * Concurrency: the scheduler's one ReentrantLock guards the origins at hand (the active set, the due-heap), the
   * lanes, the timekeeper and the state here; acquire takes it, every other method is called with it held. Network
   * I/O never happens under it. Calls into a frontier of this process (memory, or page-cache reads of the disk
   * frontier) are made under it; calls into a shared frontier (checking an origin out, reading an origin's next task,
   * giving an origin back, asking whether the crawl is finished) are Redis round trips, and the lock is let go around
   * them (outside): workers make them side by side, none waits for another's (three agents on 5,000 sites spent most
   * of their time queued behind one). So that nothing changes under a worker that let the lock go:
   *
   * 1. An origin whose next task is being read is out of the due-heap (ActiveOrigin.busy): no other worker reads or
   *    leases it meanwhile, and nothing puts it back before the read returns. A task read for an origin that a pause
   *    or a delay holds back meanwhile is kept as its next task (a retry) until the origin is due.
   * 2. An origin given back leaves the active set before the frontier hears of it; the frontier keeps it checked out
   *    until then, so no other worker can check it out in between.
   * 3. Origins being checked out count toward maxActive.
   * 4. Every wake-up is counted (Timekeeper.signals): a worker that let the lock go looks again rather than waits when
   *    one came meanwhile, once per wait (in a busy crawl one always comes: looking again each time would spin); a
   *    wake-up missed after that costs it the shared frontier's recheck period at most.
   * 5. Whether the frontier is finished is asked only when no lease is out here: a crawl cannot be finished before
   *    its leases end.
   *
   * Completions reach the frontier before the lock is taken (HostScheduler). Times come from the injected ticker (the
   * crawl's), so tests drive the schedule.
   */
  private static final long SHARED_RECHECK_MILLIS = 200;

  private final Frontier<T> frontier;
  private final QueueLanes<T> lanes;
  private final OriginsAtHand<T> origins;
  private final Ticker ticker;
  private final ReentrantLock lock;
  private final Timekeeper timekeeper;
  private final boolean remote; // whether the frontier's calls go across the network: the lock is let go for them
  private final long recheckNanos; // how long a waiting worker may go without looking at the frontier's line
  private boolean stopped;
  private int producers; // offering tasks outside the workers: while any is, an empty frontier is not the end
  private int checkingOut; // workers asking the frontier for an origin to check out (note 3)

  LeaseFinder(Frontier<T> frontier, OriginsAtHand<T> origins, Ticker ticker, ReentrantLock lock,
      Timekeeper timekeeper) {
    this.frontier = frontier;
    this.lanes = new QueueLanes<>(frontier, this::outside);
    this.origins = origins;
    this.ticker = ticker;
    this.lock = lock;
    this.timekeeper = timekeeper;
    this.remote = frontier.isShared();
    this.recheckNanos = remote ? TimeUnit.MILLISECONDS.toNanos(SHARED_RECHECK_MILLIS) : Long.MAX_VALUE;
  }

  QueueLanes<T> lanes() {
    return lanes;
  }

  /** Hands out nothing more: waiting workers return {@code null}. */
  void stop() {
    stopped = true;
  }

  boolean stopped() {
    return stopped;
  }

  /** A producer besides the workers starts offering tasks (or, {@code -1}, is done): see {@link #producing}. */
  void producers(int change) {
    producers += change;
  }

  /** Whether a producer besides the workers may still offer tasks: while one may, an empty frontier is not the end. */
  boolean producing() {
    return producers > 0;
  }

  /**
   * The next task whose origin is due, waiting up to {@code timeout} nanoseconds; {@code null} when the crawl is
   * finished, the scheduler stopped, or the time ran out. Takes the lock, and lets it go when it returns.
   */
  Lease<T> acquire(long timeout) throws InterruptedException {
    long deadline = ticker.nanos() + timeout;
    lock.lockInterruptibly();
    try {
      boolean lookedAgain = false;
      while (true) {
        long signals = timekeeper.signals();
        if (stopped) {
          return null;
        }
        Lease<T> lease = leaseIfDue();
        if (lease != null) {
          return lease;
        }
        if (!producing() && (lanes.drained(origins.all()) || origins.leasesOut() == 0 && frontierFinished())) {
          timekeeper.wakeAll(); // a shared frontier finishes without a signal here: every worker should see it
          return null;
        }
        long now = ticker.nanos();
        if (deadline - now <= 0) {
          return null;
        }
        if (timekeeper.signals() != signals && !lookedAgain) {
          lookedAgain = true; // something changed while the lock was let go: look again before waiting (note 4)
          continue;
        }
        lookedAgain = false;
        timekeeper.await(now, nextWake(now, deadline), deadline);
      }
    } finally {
      timekeeper.leaving();
      lock.unlock();
    }
  }

  /** Whether the frontier is finished (caller holds the lock). */
  private boolean frontierFinished() {
    return outside(frontier::isFinished);
  }

  /**
   * Runs a call into the frontier: with the lock let go when the frontier is shared (a round trip to Redis), under it
   * otherwise. The caller holds the lock, and holds it again when this returns.
   */
  <R> R outside(Supplier<R> call) {
    if (!remote) {
      return call.get();
    }
    lock.unlock();
    try {
      return call.get();
    } finally {
      lock.lock();
    }
  }

  /** When a waiting worker should look again: the first due time, sooner on a shared frontier, never past the deadline. */
  private long nextWake(long now, long deadline) {
    ActiveOrigin<T> head = origins.firstDue();
    long wake = head == null ? deadline : head.nextStart;
    if (recheckNanos != Long.MAX_VALUE && wake - (now + recheckNanos) > 0) {
      wake = now + recheckNanos;
    }
    return deadline - wake < 0 ? deadline : wake;
  }

  /**
   * The next task whose origin is due now, without waiting; {@code null} if none is. The caller holds the lock, which
   * is let go and taken again around the frontier's calls.
   */
  Lease<T> leaseIfDue() {
    boolean filled = false;
    while (true) {
      if (stopped) {
        return null;
      }
      long now = ticker.nanos();
      ActiveOrigin<T> head = origins.firstDue();
      boolean headDue = head != null && head.nextStart - now <= 0;
      if (!headDue || !filled) {
        // Origins in the frontier's line are due too: one joins the set at hand per lease while there is room, and
        // takes its turn after those due before it; with none due here, as many join as it takes to find a task.
        filled = true;
        if (checkOut()) {
          continue;
        }
        now = ticker.nanos();
        head = origins.firstDue();
        if (head == null || head.nextStart - now > 0) {
          return null;
        }
      }
      if (yieldsTurn(head, now)) {
        continue;
      }
      Claim<T> claim = head.takeRetry();
      if (claim == null) {
        claim = readNext(head);
        if (claim == null) {
          nothingWaits(head);
          continue;
        }
        now = ticker.nanos();
        if (stopped || head.pace.nextStart(now) - now > 0) {
          head.retryFirst(claim); // held back while it was read (note 1), or the crawl stopped: kept for later
          origins.reposition(head, now);
          continue;
        }
      }
      return origins.lease(head, claim, now);
    }
  }

  /**
   * Checks the origin first in the frontier's line out into the active set, due now; false if there is none or no
   * room. Lets the lock go while the frontier answers.
   */
  private boolean checkOut() {
    if (!origins.hasRoom(checkingOut)) {
      return false;
    }
    String queue = nextQueueUnlocked();
    if (queue == null) {
      return false;
    }
    origins.checkedOut(queue, ticker.nanos());
    return true;
  }

  private String nextQueueUnlocked() {
    checkingOut++;
    try {
      return lanes.nextQueue();
    } finally {
      checkingOut--;
    }
  }

  /** The origin's next task from the frontier, read with the lock let go and the origin out of the heap (note 1). */
  private Claim<T> readNext(ActiveOrigin<T> o) {
    origins.reading(o);
    try {
      return lanes.poll(o);
    } finally {
      origins.read(o);
    }
  }

  /** The frontier had no task for the origin: it goes back unless it has requests in flight or a retry came in. */
  private void nothingWaits(ActiveOrigin<T> o) {
    if (o.retryCount() > 0) {
      origins.reposition(o, ticker.nanos());
    } else if (o.isReleasable()) {
      giveBack(o);
    } // else requests are in flight: the first to end puts it back in the heap
  }

  /**
   * With the active set full, a due origin that has had its turns goes to the back of the frontier's line if an
   * origin waits there, which takes its place: origins beyond {@code maxActive} take turns too. Only an origin with
   * nothing pending goes (no request out, no retry, no delay or back-off to keep). True when the set at hand changed
   * (or the lock was let go): the caller looks again.
   */
  private boolean yieldsTurn(ActiveOrigin<T> head, long now) {
    if (!origins.hadItsTurns(head, now)) {
      return false;
    }
    origins.reading(head); // kept as it is while the frontier is asked (note 1)
    String waiting;
    try {
      waiting = nextQueueUnlocked();
    } finally {
      origins.read(head);
    }
    if (waiting == null) {
      head.leases = 0; // nobody waits: it keeps its place for another round of turns
      origins.reposition(head, ticker.nanos());
      return true;
    }
    origins.checkedOut(waiting, ticker.nanos());
    if (head.isReleasable()) {
      giveBack(head);
    } else {
      origins.reposition(head, ticker.nanos());
    }
    return true;
  }

  /**
   * Releases the origin to the frontier: back in line if its queue holds tasks, forgotten here (note 2). Lets the lock
   * go while the frontier hears of it.
   */
  private void giveBack(ActiveOrigin<T> o) {
    origins.forget(o);
    lanes.release(o);
  }
}

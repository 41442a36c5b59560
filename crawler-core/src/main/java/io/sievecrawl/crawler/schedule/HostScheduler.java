package io.sievecrawl.crawler.schedule;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.QueueKeys;
import io.sievecrawl.sieve.Ticker;
import java.time.Duration;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Hands workers tasks from a {@link Frontier} in an order that is polite per origin and never lets one origin hold up
 * the others.
 *
 * <p>The frontier keeps a queue per origin (scheme, host, port) and a line of the origins that hold tasks. The
 * scheduler checks origins out of the line into its <em>active</em> set, at most {@code maxActive} of them, and keeps
 * each one's pace: an active origin is <em>due</em> when it has fewer than {@code hostConcurrency} tasks in flight and
 * its next start time has come (the previous start plus its delay, or the end of a pause after 429/503 or while its
 * robots.txt is fetched). {@link #acquire} leases the next task of the origin that became due first (a due-heap, so
 * due origins take turns); each lease also checks the next origin out of the line while there is room, and as many as
 * it takes when none at hand is due. An origin whose queue turns
 * out empty when it is due goes back to the frontier, and so does an origin that has had {@value #TURN_LEASES} leases
 * while the active set is full and others wait in line. Memory is bounded by the active set, whatever the frontier
 * holds; an origin waiting in the frontier's line costs the scheduler nothing.
 *
 * <p>A frontier shared with other processes brings origins into line unannounced, so waiting workers look at its
 * line every {@value #SHARED_RECHECK_MILLIS} ms; with a frontier of this process alone they wait for an offer, a
 * completion or the next due time.
 *
 * <p>The politeness delay runs from when a request is sent ({@link #sending}), not from when its lease was handed
 * out: a worker held up between the two (a starved machine) cannot bring two requests to one origin closer together
 * than the delay.
 */
public final class HostScheduler<T> {
  /*
   * Concurrency: one ReentrantLock guards the active origins, the due-heap and the timekeeper. Network I/O never
   * happens under it. Calls into a frontier of this process (memory, or page-cache reads of the disk frontier) are
   * made under it; calls into a shared frontier (checking an origin out, reading an origin's next task, giving an
   * origin back, asking whether the crawl is finished) are Redis round trips, and the lock is let go around them:
   * workers make them side by side, none waits for another's (three agents on 5,000 sites spent most of their time
   * queued behind one). So that nothing changes under a worker that let the lock go:
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
   * Completions reach the frontier before this lock is taken. Times come from the injected ticker (the crawl's), so
   * tests drive the schedule.
   */
  static final int TURN_LEASES = 16;
  private static final long SHARED_RECHECK_MILLIS = 200;

  private final Frontier<T> frontier;
  private final QueueLanes<T> lanes;
  private final Politeness politeness;
  private final int hostConcurrency;
  private final Ticker ticker;
  private final LeaseObserver observer;
  private final long recheckNanos; // how long a waiting worker may go without looking at the frontier's line
  private final ReentrantLock lock = new ReentrantLock();
  private final Timekeeper timekeeper = new Timekeeper(lock);
  private final Map<String, ActiveOrigin<T>> active = new HashMap<>();
  private final DueOrigins<T> due = new DueOrigins<>();
  private boolean stopped;
  private int producers; // offering tasks outside the workers: while any is, an empty frontier is not the end
  private int checkingOut; // workers asking the frontier for an origin to check out (note 3)
  private int leasesOut; // leases handed out and not ended, over all origins (note 5)
  private final boolean remote; // whether the frontier's calls go across the network: the lock is let go for them

  /** A task handed to a worker: its frontier claim and its origin. */
  public record Lease<T>(Claim<T> claim, String origin) {
    public T task() {
      return claim.task();
    }
  }

  /** Told of every lease, with the ticker's time: lets tests check the schedule on the scheduler's own clock. */
  @FunctionalInterface
  public interface LeaseObserver {
    LeaseObserver NONE = (origin, nanos) -> { };

    void leased(String origin, long nanos);

    /** The start of the lease made at {@code nanos} was taken back: it sent no request ({@link #completeUnfetched}). */
    default void startTakenBack(String origin, long nanos) { }

    /** A request to {@code origin} goes on the wire at {@code nanos} ({@link #sending}). */
    default void sent(String origin, long nanos) { }
  }

  /**
   * @param frontier a frontier whose queues are keyed by origin
   * @param politeness requests in flight per origin, least delay between starts, and the origins kept at hand
   * @param ticker the crawl's ticker, which every delay and pause is timed on
   */
  public HostScheduler(Frontier<T> frontier, Politeness politeness, Ticker ticker, LeaseObserver observer) {
    this.frontier = frontier;
    this.lanes = new QueueLanes<>(frontier, this::outside);
    this.politeness = politeness;
    this.hostConcurrency = politeness.hostConcurrency();
    this.ticker = ticker;
    this.observer = observer;
    this.remote = frontier.isShared();
    this.recheckNanos = remote ? TimeUnit.MILLISECONDS.toNanos(SHARED_RECHECK_MILLIS) : Long.MAX_VALUE;
  }

  /** Offers {@code task} to the frontier; returns whether it was admitted. Wakes a waiting worker if so. */
  public boolean offer(T task) {
    return !offerAll(List.of(task)).isEmpty();
  }

  /**
   * Offers {@code tasks} to the frontier together (one round trip to a shared one); returns which were admitted, by
   * index. Wakes waiting workers if any was: its origin may have come into line.
   */
  public BitSet offerAll(List<T> tasks) {
    if (tasks.isEmpty()) {
      return new BitSet();
    }
    BitSet admitted = frontier.offerAll(tasks);
    if (!admitted.isEmpty()) {
      lock.lock();
      try {
        lanes.laneOffered(); // perhaps: the scheduler does not know the tasks' queues
        if (admitted.cardinality() == 1) {
          timekeeper.wakeOne();
        } else {
          timekeeper.wakeAll();
        }
      } finally {
        lock.unlock();
      }
    }
    return admitted;
  }

  /**
   * Keeps the crawl from finishing while a producer besides the workers (the seeds being queued) may still offer
   * tasks; {@link #producerDone} ends the hold.
   */
  public void producerStarts() {
    lock.lock();
    try {
      producers++;
    } finally {
      lock.unlock();
    }
  }

  /** Ends a {@link #producerStarts} hold; workers waiting on an empty frontier look again. */
  public void producerDone() {
    lock.lock();
    try {
      producers--;
      timekeeper.wakeAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether the crawl is finished: nothing waits, nothing is in flight, and no producer may offer more; or, once
   * {@linkplain #closeMainQueues origins' own queues are closed}, no lane's task is left.
   */
  public boolean isFinished() {
    lock.lock();
    try {
      if (producers > 0) {
        return false;
      }
      if (lanes.drained(active.values())) {
        return true;
      }
    } finally {
      lock.unlock();
    }
    return frontier.isFinished();
  }

  /**
   * Serves only the origins' lanes from now on (their requisites), not their own queues: the page limit was reached,
   * and the pages fetched still get what they need. The crawl is finished once no lane's task is left.
   */
  public void closeMainQueues() {
    lock.lock();
    try {
      lanes.closeMainQueues();
      timekeeper.wakeAll();
    } finally {
      lock.unlock();
    }
  }

  /** Whether this process may still work on the lease's task (see {@link Frontier#owns}). */
  public boolean owns(Lease<T> lease) {
    return frontier.owns(lease.claim());
  }

  /**
   * The next task whose origin is due, waiting up to {@code timeout}; {@code null} when the crawl is finished, the
   * scheduler stopped, or the time ran out.
   */
  public Lease<T> acquire(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = ticker.nanos() + unit.toNanos(timeout);
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
        if (producers == 0 && (lanes.drained(active.values()) || leasesOut == 0 && frontierFinished())) {
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
  private <R> R outside(java.util.function.Supplier<R> call) {
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
    ActiveOrigin<T> head = due.peek();
    long wake = head == null ? deadline : head.nextStart;
    if (recheckNanos != Long.MAX_VALUE && wake - (now + recheckNanos) > 0) {
      wake = now + recheckNanos;
    }
    return deadline - wake < 0 ? deadline : wake;
  }

  /** The next task whose origin is due now, without waiting; {@code null} if none is. */
  public Lease<T> poll() {
    lock.lock();
    try {
      return stopped ? null : leaseIfDue();
    } finally {
      lock.unlock();
    }
  }

  /** Caller holds the lock, which is let go and taken again around the frontier's calls. */
  private Lease<T> leaseIfDue() {
    boolean filled = false;
    while (true) {
      if (stopped) {
        return null;
      }
      long now = ticker.nanos();
      ActiveOrigin<T> head = due.peek();
      boolean headDue = head != null && head.nextStart - now <= 0;
      if (!headDue || !filled) {
        // Origins in the frontier's line are due too: one joins the set at hand per lease while there is room, and
        // takes its turn after those due before it; with none due here, as many join as it takes to find a task.
        filled = true;
        if (checkOut()) {
          continue;
        }
        now = ticker.nanos();
        head = due.peek();
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
          reposition(head, now);
          continue;
        }
      }
      return lease(head, claim, now);
    }
  }

  /**
   * Checks the origin first in the frontier's line out into the active set, due now; false if there is none or no
   * room. Lets the lock go while the frontier answers.
   */
  private boolean checkOut() {
    if (active.size() + checkingOut >= politeness.maxActive()) {
      return false;
    }
    String queue = nextQueueUnlocked();
    if (queue == null) {
      return false;
    }
    admit(queue, ticker.nanos());
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
    due.remove(o);
    o.busy = true;
    try {
      return lanes.poll(o);
    } finally {
      o.busy = false;
    }
  }

  /** The frontier had no task for the origin: it goes back unless it has requests in flight or a retry came in. */
  private void nothingWaits(ActiveOrigin<T> o) {
    if (o.retryCount() > 0) {
      reposition(o, ticker.nanos());
    } else if (o.isReleasable()) {
      giveBack(o);
    } // else requests are in flight: the first to end puts it back in the heap
  }

  /** The queue {@code key} was checked out: its origin joins the set at hand, or has one more of its queues. */
  private void admit(String key, long now) {
    ActiveOrigin<T> o = active.computeIfAbsent(QueueKeys.origin(key), origin -> new ActiveOrigin<>(origin, politeness,
        now));
    o.checkedOut(key);
    if (o.hasRoom(hostConcurrency) && !o.busy) {
      due.add(o);
    }
  }

  /**
   * With the active set full, a due origin that has had its turns goes to the back of the frontier's line if an
   * origin waits there, which takes its place: origins beyond {@code maxActive} take turns too. Only an origin with
   * nothing pending goes (no request out, no retry, no delay or back-off to keep). True when the set at hand changed
   * (or the lock was let go): the caller looks again.
   */
  private boolean yieldsTurn(ActiveOrigin<T> head, long now) {
    if (active.size() < politeness.maxActive() || head.leases < TURN_LEASES || !head.isReleasable()
        || !head.pace.isIdle(now)) {
      return false;
    }
    due.remove(head);
    head.busy = true; // kept as it is while the frontier is asked (note 1)
    String waiting;
    try {
      waiting = nextQueueUnlocked();
    } finally {
      head.busy = false;
    }
    if (waiting == null) {
      head.leases = 0; // nobody waits: it keeps its place for another round of turns
      reposition(head, ticker.nanos());
      return true;
    }
    admit(waiting, ticker.nanos());
    if (head.isReleasable()) {
      giveBack(head);
    } else {
      reposition(head, ticker.nanos());
    }
    return true;
  }

  /**
   * Releases the origin to the frontier: back in line if its queue holds tasks, forgotten here (note 2). Lets the lock
   * go while the frontier hears of it.
   */
  private void giveBack(ActiveOrigin<T> o) {
    due.remove(o);
    active.remove(o.origin);
    lanes.release(o);
  }

  private Lease<T> lease(ActiveOrigin<T> o, Claim<T> claim, long now) {
    o.inFlight++;
    leasesOut++;
    o.leases++;
    o.lastLeased = claim;
    o.startBefore = o.pace.lastStart();
    o.startedBefore = o.pace.hasStarted();
    o.pace.started(now);
    reposition(o, now);
    observer.leased(o.origin, now);
    return new Lease<>(claim, o.origin);
  }

  /**
   * Puts the origin at its next start in the due-heap, or out of it while its requests in flight are at the limit or
   * its next task is being read.
   */
  private void reposition(ActiveOrigin<T> o, long now) {
    due.reschedule(o, o.pace.nextStart(now));
    if (o.hasRoom(hostConcurrency) && !o.busy) {
      due.add(o);
    } else {
      due.remove(o);
    }
  }

  /**
   * The lease's request is about to go on the wire: returns 0 and counts the origin's delay from now, or, when a
   * request of the origin went less than its delay ago (one leased after this one and sent first), the nanoseconds
   * to wait, and counts nothing: the caller postpones the lease that long ({@link #postpone}).
   */
  public long sending(Lease<T> lease) {
    lock.lock();
    try {
      ActiveOrigin<T> o = active.get(lease.origin());
      long now = ticker.nanos();
      long wait = o.pace.sending(now);
      if (wait == 0) {
        reposition(o, now);
        observer.sent(o.origin, now);
      }
      return wait;
    } finally {
      lock.unlock();
    }
  }

  /** The worker is done with the lease's task, and has offered what it found: the frontier acknowledges it. */
  public void complete(Lease<T> lease) {
    frontier.complete(lease.claim());
    lock.lock();
    try {
      ended(lease);
    } finally {
      lock.unlock();
    }
  }

  /**
   * As {@link #complete}, for a task that ended without a request (robots.txt disallowed it, its origin was given up,
   * a budget was spent): the origin's next start is as if the task had not been leased, so URLs skipped this way do
   * not each wait out the politeness delay. (If another task of the origin was leased since, its start stands.)
   */
  public void completeUnfetched(Lease<T> lease) {
    frontier.complete(lease.claim());
    lock.lock();
    try {
      takeBackStart(active.get(lease.origin()), lease);
      ended(lease);
    } finally {
      lock.unlock();
    }
  }

  /** The lease's start stands for no request: the origin's pace is as if it had not been made. */
  private void takeBackStart(ActiveOrigin<T> o, Lease<T> lease) {
    if (o.lastLeased == lease.claim()) {
      observer.startTakenBack(o.origin, o.pace.lastStart());
      o.pace.restoreStart(o.startBefore, o.startedBefore);
      o.lastLeased = null;
    }
  }

  /**
   * The worker gives the lease up without finishing the task (a stop, the page limit, a fatal error): the frontier
   * keeps it unacknowledged, so a resumed crawl does it again.
   */
  public void abandon(Lease<T> lease) {
    frontier.abandon(lease.claim());
    lock.lock();
    try {
      ended(lease);
    } finally {
      lock.unlock();
    }
  }

  private void ended(Lease<T> lease) {
    ActiveOrigin<T> o = active.get(lease.origin());
    o.inFlight--;
    leasesOut--;
    reposition(o, ticker.nanos());
    timekeeper.wakeAll();
  }

  /**
   * The task goes back to the front of its origin's queue as {@code retry}, to be tried again no earlier than
   * {@code after} from now; the whole origin waits that long (a server answering 429 or 503 gets a rest).
   */
  public void retryLater(Lease<T> lease, T retry, Duration after) {
    handBack(lease, retry, after, false);
  }

  /**
   * As {@link #retryLater} for a task that sent no request (its origin's robots.txt is awaited, or unreachable for a
   * while): its start is taken back, so that the first page goes as soon as the origin may go on, not a delay after
   * a request that was never made.
   */
  public void postpone(Lease<T> lease, Duration after) {
    handBack(lease, lease.task(), after, true);
  }

  private void handBack(Lease<T> lease, T retry, Duration after, boolean unfetched) {
    lock.lock();
    try {
      ActiveOrigin<T> o = active.get(lease.origin());
      if (unfetched) {
        takeBackStart(o, lease);
      }
      o.inFlight--;
      leasesOut--;
      long now = ticker.nanos();
      o.pace.pauseUntil(now + after.toNanos());
      o.retryFirst(new Claim<>(retry, lease.claim().id()));
      reposition(o, now);
      timekeeper.wakeAll();
    } finally {
      lock.unlock();
    }
  }

  /** The origin's robots.txt asks for at least {@code crawlDelay} between starts. */
  public void setCrawlDelay(String origin, Duration crawlDelay) {
    withOrigin(origin, (o, now) -> o.pace.crawlDelay(crawlDelay.toNanos()));
  }

  /**
   * A response from {@code origin} came after {@code responseTime} with {@code status} ({@code null} when none
   * came): the origin's delay adapts, and backs off after 429 and 503.
   */
  public void responded(String origin, Duration responseTime, Integer status) {
    withOrigin(origin, (o, now) -> o.pace.responded(responseTime.toNanos(), status));
  }

  /** Starts nothing more for {@code origin} until {@code pause} from now (a server that asked for a rest). */
  public void pause(String origin, Duration pause) {
    withOrigin(origin, (o, now) -> o.pace.pauseUntil(now + pause.toNanos()));
  }

  /** Ends a pause of {@code origin} now (its robots.txt arrived), waking a worker for it. */
  public void resume(String origin) {
    withOrigin(origin, (o, now) -> o.pace.resume(now));
  }

  /** The origin's current delay between starts; zero for an origin not at hand. For tests and the log. */
  public Duration delayOf(String origin) {
    lock.lock();
    try {
      ActiveOrigin<T> o = active.get(origin);
      return o == null ? Duration.ZERO : Duration.ofNanos(o.pace.effectiveDelay());
    } finally {
      lock.unlock();
    }
  }

  private interface PaceChange<T> {
    void apply(ActiveOrigin<T> o, long now);
  }

  private void withOrigin(String origin, PaceChange<T> change) {
    lock.lock();
    try {
      ActiveOrigin<T> o = active.get(origin);
      if (o != null) {
        long now = ticker.nanos();
        change.apply(o, now);
        reposition(o, now);
        timekeeper.wakeAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Stops handing out tasks; waiting workers return {@code null}. Tasks held here stay unacknowledged. */
  public void stop() {
    lock.lock();
    try {
      stopped = true;
      timekeeper.wakeAll();
    } finally {
      lock.unlock();
    }
    frontier.stop();
  }

  /** Where the origins at hand stand now, for a progress line. */
  public SchedulerSnapshot snapshot() {
    lock.lock();
    try {
      return SchedulerSnapshot.of(active.values(), ticker.nanos());
    } finally {
      lock.unlock();
    }
  }
}

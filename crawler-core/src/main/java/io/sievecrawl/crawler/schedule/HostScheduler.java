package io.sievecrawl.crawler.schedule;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.Ticker;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
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
 *
 * <p>The parts: {@link LeaseFinder} finds the next lease and makes the frontier's calls, letting the lock go around
 * a shared frontier's (its design notes say why nothing changes under a worker meanwhile); {@link OriginsAtHand}
 * keeps the active set, the due-heap and the bookkeeping of leases; {@link QueueLanes} the origins' lanes.
 */
public final class HostScheduler<T> {
  /*
   * Concurrency: one ReentrantLock guards the origins at hand, the lanes, the timekeeper and the lease finder's
   * state; every public method takes it, and none holds it for network I/O (LeaseFinder's notes 1 to 5 cover the
   * calls into a shared frontier, made with it let go). Completions and abandons reach the frontier before it is
   * taken. Times come from the injected ticker (the crawl's), so tests drive the schedule.
   */
  static final int TURN_LEASES = 16;

  private final Frontier<T> frontier;
  private final OriginsAtHand<T> origins;
  private final LeaseFinder<T> finder;
  private final QueueLanes<T> lanes;
  private final Ticker ticker;
  private final ReentrantLock lock = new ReentrantLock();
  private final Timekeeper timekeeper = new Timekeeper(lock);

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
    this.origins = new OriginsAtHand<>(politeness, observer);
    this.finder = new LeaseFinder<>(frontier, origins, ticker, lock, timekeeper);
    this.lanes = finder.lanes();
    this.ticker = ticker;
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
      finder.producers(1);
    } finally {
      lock.unlock();
    }
  }

  /** Ends a {@link #producerStarts} hold; workers waiting on an empty frontier look again. */
  public void producerDone() {
    lock.lock();
    try {
      finder.producers(-1);
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
      if (finder.producing()) {
        return false;
      }
      if (lanes.drained(origins.all())) {
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
    return finder.acquire(unit.toNanos(timeout));
  }

  /** The next task whose origin is due now, without waiting; {@code null} if none is. */
  public Lease<T> poll() {
    lock.lock();
    try {
      return finder.stopped() ? null : finder.leaseIfDue();
    } finally {
      lock.unlock();
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
      return origins.sending(lease, ticker.nanos());
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
      origins.takeBackStart(lease);
      ended(lease);
    } finally {
      lock.unlock();
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
    origins.ended(lease, ticker.nanos());
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
      origins.handBack(lease, retry, after, unfetched, ticker.nanos());
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
      return origins.delayOf(origin);
    } finally {
      lock.unlock();
    }
  }

  private void withOrigin(String origin, OriginsAtHand.PaceChange<T> change) {
    lock.lock();
    try {
      if (origins.change(origin, change, ticker.nanos())) {
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
      finder.stop();
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
      return origins.snapshot(ticker.nanos());
    } finally {
      lock.unlock();
    }
  }
}

package io.sievecrawl.crawler.schedule;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
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
import java.util.function.LongSupplier;

/**
 * Hands workers tasks from a {@link Frontier} in an order that is polite per origin and never lets one origin hold up
 * the others.
 *
 * <p>Tasks claimed from the frontier wait in a bounded window per origin (scheme, host, port). An origin is
 * <em>ready</em> when it has a waiting task, fewer than {@code hostConcurrency} tasks in flight, and its next start
 * time has come (the previous start plus its delay, or the end of a pause after 429/503 or an unreachable
 * robots.txt). {@link #acquire} returns a task of the origin that became ready first; when none is ready it pulls
 * from the frontier on demand, so a slow or paused origin's backlog never blocks a worker while another origin has
 * work.
 *
 * <p>Memory is bounded whatever the frontier holds: at most {@code window} tasks per origin and {@code maxHeld} in
 * all wait here. A task pulled for an origin whose window is full goes back to the frontier's tail
 * ({@link Frontier#requeue}). When a whole pass over the frontier places nothing, the scheduler <em>parks</em>:
 * everything in the frontier then belongs to origins whose windows are full, so it reads the frontier again only to
 * find a task for an origin that has room and may have one there (after a lease from a window that overflowed, or
 * an offer), and stops when it has. A polite crawl of one site therefore reads about one task from the frontier per
 * page, not the whole frontier. On a shared frontier, where sending a task round costs a round trip, a parked
 * scheduler takes an origin's next task from the origin's own shard ({@link Frontier#pollFrom}); it also gets tasks
 * from other processes unannounced, so it looks at a bounded part of it every second (less while looks find none).
 * Origins with nothing waiting, nothing in flight and no delay pending are forgotten.
 */
public final class HostScheduler<T> {
  /*
   * Concurrency: one ReentrantLock guards every origin queue, the ready heap and the counters. Network I/O never
   * happens under it; the frontier's own lock is taken inside it (never the other way round), and a disk frontier
   * may read its log under it (page-cache reads of at most 256 KB). Workers wait on one condition, signalled when a
   * task is offered, a lease is released or the scheduler stops. Time passing is watched by timekeepers: a waiting
   * worker waits with a timeout, until the earliest start (at most IDLE_RECHECK_NANOS when no origin waits, or on a
   * shared frontier, which gets tasks from other agents unannounced), only when no timekeeper wakes as early
   * (watchedUntil); the others sleep until signalled. When the earliest timekeeper leaves, the watch is unknown,
   * and a worker leaving acquire wakes a sleeper to keep it. So a crawl that waits out a delay wakes a worker or
   * two, not all of them (at concurrency 1,000, a crawl waiting for one origin took about 10 ms of CPU a second
   * instead of 30). Times come from the injected ticker (System.nanoTime in a crawl), so tests can drive the schedule.
   */
  private static final long IDLE_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
  private static final int PULL_BUDGET = 4_096; // frontier records looked at per acquire, at most
  private static final long RESCAN_NANOS = TimeUnit.SECONDS.toNanos(1); // parked on a shared frontier: look again
  private static final int RESCAN_BUDGET = 1_024; // records looked at by one such look, at most
  private static final int MIN_RESCAN_BUDGET = 32; // ... and at least: halved after each look that placed nothing
  private static final int SWEEP_EVERY = 1_024;

  private final Frontier<T> frontier;
  private final Function<T, String> originOf;
  private final Politeness politeness;
  private final int hostConcurrency;
  private final int window;
  private final int maxHeld;
  private final LongSupplier ticker;
  private final LeaseObserver observer;
  private final boolean shared;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<String, OriginQueue<T>> origins = new HashMap<>();
  private final PriorityQueue<OriginQueue<T>> ready =
      new PriorityQueue<>((a, b) -> Long.compare(a.nextStart - b.nextStart, 0));
  private boolean stopped;
  private int held; // tasks waiting in origin queues
  private long cycleStart = -1; // claim id of the first task requeued since the last one placed
  private long cycle; // counts the runs of requeues: the pass that may wrap at cycleStart is number `cycle`
  private boolean parked; // a whole pass placed nothing: every task in the frontier is for a full window
  private final Map<String, Long> wanted = new HashMap<>(); // origins to look for in the frontier, by the cycle
  private int rescanLeft; // while parked on a shared frontier: records still to look at in this second's look
  private int rescanBudget = RESCAN_BUDGET;
  private boolean rescanPlaced; // the current look placed a task
  private long nextRescan;
  private int operations;
  private int timekeepers; // workers waiting in acquire with a timeout: see above
  private boolean watchKnown; // whether watchedUntil holds: a timekeeper wakes by then
  private long watchedUntil;

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
  }

  private static final class OriginQueue<T> {
    final String origin;
    final ArrayDeque<Claim<T>> tasks = new ArrayDeque<>();
    final OriginPace pace;
    int inFlight;
    long nextStart; // pace.nextStart, cached: the ready heap orders by it
    boolean queued; // in the ready heap
    boolean overflowed; // a task of this origin went back to the frontier: the frontier may hold more of them
    Claim<?> lastLeased; // the latest lease's claim, and the pace's start before it: see completeUnfetched
    long startBefore;
    boolean startedBefore;

    OriginQueue(String origin, Politeness politeness, long now) {
      this.origin = origin;
      this.pace = new OriginPace(politeness);
      this.nextStart = now;
    }
  }

  /**
   * @param originOf the politeness key of a task: its origin
   * @param politeness requests in flight per origin, least delay between starts, and the memory bounds
   * @param ticker nanoseconds of a monotonic clock ({@code System::nanoTime})
   */
  public HostScheduler(Frontier<T> frontier, Function<T, String> originOf, Politeness politeness, LongSupplier ticker,
      LeaseObserver observer) {
    this.frontier = frontier;
    this.originOf = originOf;
    this.politeness = politeness;
    this.hostConcurrency = politeness.hostConcurrency();
    this.window = politeness.window();
    this.maxHeld = politeness.maxHeld();
    this.ticker = ticker;
    this.observer = observer;
    this.shared = frontier.isShared();
  }

  /** Offers {@code task} to the frontier; returns whether it was admitted. Wakes a waiting worker if so. */
  public boolean offer(T task) {
    if (!frontier.offer(task)) {
      return false;
    }
    lock.lock();
    try {
      noteOffered(task);
      changed.signal();
    } finally {
      lock.unlock();
    }
    return true;
  }

  /**
   * Offers {@code tasks} to the frontier together (one round trip to a shared one); returns which were admitted, by
   * index.
   */
  public java.util.BitSet offerAll(java.util.List<T> tasks) {
    if (tasks.isEmpty()) {
      return new java.util.BitSet();
    }
    java.util.BitSet admitted = frontier.offerAll(tasks);
    if (!admitted.isEmpty()) {
      lock.lock();
      try {
        for (int i = admitted.nextSetBit(0); i >= 0; i = admitted.nextSetBit(i + 1)) {
          noteOffered(tasks.get(i));
        }
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
    return admitted;
  }

  /**
   * A task just went to the frontier's tail, behind the point where a pass that is under way would wrap: look for
   * it if its origin has room, or else remember that the origin's window overflowed.
   */
  private void noteOffered(T task) {
    String origin = originOf.apply(task);
    OriginQueue<T> q = origins.get(origin);
    if (q != null && q.tasks.size() >= window) {
      q.overflowed = true;
    } else {
      want(origin);
    }
  }

  /**
   * Notes that the frontier may hold a task of {@code origin} that its window has room for. Past {@code maxHeld}
   * such origins (many new hosts at once) the notes are dropped and the frontier is read in full passes again,
   * which need none: memory stays bounded.
   */
  private void want(String origin) {
    wanted.put(origin, cycle);
    if (wanted.size() > maxHeld) {
      wanted.clear();
      parked = false;
      cycleStart = -1; // a pass that wraps from here on has seen every task offered before
    }
  }

  /** Whether this process may still work on the lease's task (see {@link Frontier#owns}). */
  public boolean owns(Lease<T> lease) {
    return frontier.owns(lease.claim());
  }

  /**
   * The next task whose origin is ready, waiting up to {@code timeout}; {@code null} when the crawl is finished,
   * the scheduler stopped, or the time ran out.
   */
  public Lease<T> acquire(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = ticker.getAsLong() + unit.toNanos(timeout);
    lock.lockInterruptibly();
    try {
      while (true) {
        if (stopped) {
          return null;
        }
        long now = ticker.getAsLong();
        Lease<T> lease = leaseIfReady(now);
        if (lease != null) {
          return lease;
        }
        if (held == 0 && frontier.isFinished()) {
          changed.signalAll(); // a shared frontier finishes without a signal here: every worker should see it
          return null;
        }
        if (deadline - now <= 0) {
          return null;
        }
        OriginQueue<T> head = ready.peek();
        long wait = head == null || shared ? Math.min(deadline - now, IDLE_RECHECK_NANOS) : deadline - now;
        long wake = now + Math.max(1, head == null ? wait : Math.min(wait, head.nextStart - now));
        if (watchKnown && wake - watchedUntil >= 0) {
          changed.awaitNanos(deadline - now); // a timekeeper wakes no later than this worker would need to
          continue;
        }
        timekeepers++;
        watchKnown = true;
        watchedUntil = wake;
        try {
          changed.awaitNanos(wake - now);
        } finally {
          timekeepers--;
          if (timekeepers == 0 || watchedUntil == wake) {
            watchKnown = false; // the earliest watch ends; a later timekeeper's time is not kept
          }
        }
      }
    } finally {
      if (!watchKnown && lock.hasWaiters(changed)) {
        changed.signal(); // a sleeper takes up the watch
      }
      lock.unlock();
    }
  }

  /** The next task whose origin is ready now, without waiting; {@code null} if none is. */
  public Lease<T> poll() {
    lock.lock();
    try {
      return stopped ? null : leaseIfReady(ticker.getAsLong());
    } finally {
      lock.unlock();
    }
  }

  private Lease<T> leaseIfReady(long now) {
    OriginQueue<T> head = ready.peek();
    if (head == null || head.nextStart - now > 0) {
      pull(now);
      head = ready.peek();
    }
    if (head != null && head.nextStart - now <= 0) {
      return lease(ready.poll(), now);
    }
    return null;
  }

  /**
   * Claims tasks from the frontier into origin windows until an origin is ready or a bound is reached; once parked,
   * only until every origin that got room has its task.
   */
  private void pull(long now) {
    if (parked && held == 0) {
      if (shared) {
        // every window has room: look in the shards of the origins that have more, not through the whole stream
        origins.values().stream().filter(q -> q.overflowed).forEach(q -> want(q.origin));
      } else {
        parked = false; // every window has room, so any task in the frontier can be placed: a safety net
      }
    }
    if (parked && shared && !wanted.isEmpty()) {
      pullWanted(now);
      OriginQueue<T> head = ready.peek();
      if (head != null && head.nextStart - now <= 0) {
        return;
      }
    }
    if (parked && shared && now - nextRescan >= 0) {
      // each record looked at in vain goes round the shared stream, a round trip: look less while looks find nothing
      rescanBudget = rescanPlaced ? RESCAN_BUDGET : Math.max(MIN_RESCAN_BUDGET, rescanBudget / 2);
      rescanPlaced = false;
      rescanLeft = rescanBudget;
      nextRescan = now + RESCAN_NANOS;
    }
    for (int budget = PULL_BUDGET; budget > 0 && held < maxHeld && worthPulling(); budget--) {
      Claim<T> claim = frontier.poll();
      if (claim == null) {
        wanted.clear(); // nothing waits in the frontier
        return;
      }
      if (parked && rescanLeft > 0) {
        rescanLeft--;
      }
      String origin = originOf.apply(claim.task());
      OriginQueue<T> q = origins.computeIfAbsent(origin, o -> new OriginQueue<>(o, politeness, now));
      if (q.tasks.size() >= window) {
        boolean wrapped = cycleStart >= 0 && claim.id() >= cycleStart;
        long id = frontier.requeue(claim);
        q.overflowed = true;
        if (cycleStart < 0) {
          cycleStart = id;
          cycle++;
        }
        if (wrapped) {
          park(now);
        }
        continue;
      }
      if (parked) {
        wanted.remove(origin); // found; it may have more, which its next lease looks for, from just after this one
        q.overflowed = true;
        rescanPlaced |= rescanLeft > 0;
      } else {
        wanted.clear(); // the pass goes on and meets every task in the frontier before it can wrap
      }
      cycleStart = -1;
      q.tasks.addLast(claim);
      held++;
      requeue(q);
      OriginQueue<T> head = ready.peek();
      if (head != null && head.nextStart - now <= 0) {
        return;
      }
    }
  }

  /**
   * Parked on a shared frontier: each origin that has room and may have a task waiting is looked for in its own
   * shard ({@link Frontier#pollFrom}), so that finding it does not send every other origin's tasks round the
   * shared stream, one round trip to Redis each. A task of another origin of the same shard is placed, or sent
   * back when its window is full.
   */
  private void pullWanted(long now) {
    int budget = PULL_BUDGET;
    for (String origin : List.copyOf(wanted.keySet())) {
      while (wanted.containsKey(origin) && budget-- > 0 && held < maxHeld) {
        OriginQueue<T> wantedQueue = origins.get(origin);
        if (wantedQueue != null && wantedQueue.tasks.size() >= window) {
          wanted.remove(origin); // no room after all: its next lease looks again
          break;
        }
        Claim<T> claim = frontier.pollFrom(origin);
        if (claim == null) {
          wanted.remove(origin); // nothing of its shard waits
          if (wantedQueue != null) {
            wantedQueue.overflowed = false;
          }
          break;
        }
        String found = originOf.apply(claim.task());
        OriginQueue<T> q = origins.computeIfAbsent(found, o -> new OriginQueue<>(o, politeness, now));
        q.overflowed = true; // it may have more waiting
        if (q.tasks.size() >= window) {
          frontier.requeue(claim);
          continue;
        }
        q.tasks.addLast(claim);
        held++;
        requeue(q);
        wanted.remove(found); // the origin looked for, or another of its shard, found too
      }
    }
  }

  private boolean worthPulling() {
    return !parked || !wanted.isEmpty() || rescanLeft > 0;
  }

  /**
   * A whole pass placed nothing: everything waiting in the frontier belongs to origins whose windows are full,
   * except tasks that went to its tail during the pass, or went round before their origin got room. So an origin
   * looked for since before the pass began is not there; one noted during the pass is looked for again.
   */
  private void park(long now) {
    wanted.entrySet().removeIf(looked -> {
      if (looked.getValue() >= cycle) {
        return false;
      }
      OriginQueue<T> q = origins.get(looked.getKey());
      if (q != null) {
        q.overflowed = false;
      }
      return true;
    });
    parked = true;
    cycleStart = -1;
    rescanLeft = 0;
    nextRescan = now + RESCAN_NANOS;
  }

  private void requeue(OriginQueue<T> q) {
    if (!q.queued && !q.tasks.isEmpty() && q.inFlight < hostConcurrency) {
      ready.add(q);
      q.queued = true;
    }
  }

  /** Recomputes the origin's next start from its pace and re-sorts it in the ready heap. */
  private void reposition(OriginQueue<T> q, long now) {
    long next = q.pace.nextStart(now);
    if (next == q.nextStart) {
      return;
    }
    if (q.queued) { // the heap orders by nextStart: re-insert after changing it
      ready.remove(q);
      q.queued = false;
    }
    q.nextStart = next;
    requeue(q);
  }

  private Lease<T> lease(OriginQueue<T> q, long now) {
    q.queued = false;
    Claim<T> claim = q.tasks.pollFirst();
    held--;
    q.inFlight++;
    q.lastLeased = claim;
    q.startBefore = q.pace.lastStart();
    q.startedBefore = q.pace.hasStarted();
    if (q.overflowed) {
      want(q.origin); // its window has room now, and the frontier may hold its next task
    }
    q.pace.started(now);
    q.nextStart = q.pace.nextStart(now);
    requeue(q);
    observer.leased(q.origin, now);
    return new Lease<>(claim, q.origin);
  }

  /** The worker is done with the lease's task, and has offered what it found: the frontier acknowledges it. */
  public void complete(Lease<T> lease) {
    lock.lock();
    try {
      frontier.complete(lease.claim());
      release(lease);
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
    lock.lock();
    try {
      frontier.complete(lease.claim());
      OriginQueue<T> q = origins.get(lease.origin());
      if (q.lastLeased == lease.claim()) {
        observer.startTakenBack(q.origin, q.pace.lastStart());
        q.pace.restoreStart(q.startBefore, q.startedBefore);
        q.lastLeased = null;
        reposition(q, ticker.getAsLong());
      }
      release(lease);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The worker gives the lease up without finishing the task (a stop, the page limit, a fatal error): the frontier
   * keeps it unacknowledged, so a resumed crawl does it again.
   */
  public void abandon(Lease<T> lease) {
    lock.lock();
    try {
      frontier.abandon(lease.claim());
      release(lease);
    } finally {
      lock.unlock();
    }
  }

  private void release(Lease<T> lease) {
    OriginQueue<T> q = origins.get(lease.origin());
    q.inFlight--;
    requeue(q);
    forgetIfIdle(q, ticker.getAsLong());
    changed.signalAll();
  }

  /**
   * The task goes back to the front of its origin's queue as {@code retry}, to be tried again no earlier than
   * {@code after} from now; the whole origin waits that long (a server answering 429 or 503 gets a rest).
   */
  public void retryLater(Lease<T> lease, T retry, Duration after) {
    lock.lock();
    try {
      OriginQueue<T> q = origins.get(lease.origin());
      q.inFlight--;
      long now = ticker.getAsLong();
      q.pace.pauseUntil(now + after.toNanos());
      q.tasks.addFirst(new Claim<>(retry, lease.claim().id()));
      held++;
      reposition(q, now);
      requeue(q);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The origin's robots.txt asks for at least {@code crawlDelay} between starts. */
  public void setCrawlDelay(String origin, Duration crawlDelay) {
    withOrigin(origin, (q, now) -> q.pace.crawlDelay(crawlDelay.toNanos()));
  }

  /**
   * A response from {@code origin} came after {@code responseTime} with {@code status} ({@code null} when none
   * came): the origin's delay adapts, and backs off after 429 and 503.
   */
  public void responded(String origin, Duration responseTime, Integer status) {
    withOrigin(origin, (q, now) -> q.pace.responded(responseTime.toNanos(), status));
  }

  /** Starts nothing more for {@code origin} until {@code pause} from now (a server that asked for a rest). */
  public void pause(String origin, Duration pause) {
    withOrigin(origin, (q, now) -> q.pace.pauseUntil(now + pause.toNanos()));
  }

  /** Ends a pause of {@code origin} now (its robots.txt arrived), waking a worker for it. */
  public void resume(String origin) {
    withOrigin(origin, (q, now) -> q.pace.resume(now));
  }

  /** The origin's current delay between starts; zero for an origin without state. For tests and the log. */
  public Duration delayOf(String origin) {
    lock.lock();
    try {
      OriginQueue<T> q = origins.get(origin);
      return q == null ? Duration.ZERO : Duration.ofNanos(q.pace.effectiveDelay());
    } finally {
      lock.unlock();
    }
  }

  private interface PaceChange<T> {
    void apply(OriginQueue<T> q, long now);
  }

  private void withOrigin(String origin, PaceChange<T> change) {
    lock.lock();
    try {
      OriginQueue<T> q = origins.get(origin);
      if (q != null) {
        long now = ticker.getAsLong();
        change.apply(q, now);
        reposition(q, now);
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private void forgetIfIdle(OriginQueue<T> q, long now) {
    if (isIdle(q, now)) {
      origins.remove(q.origin);
    }
    if (++operations % SWEEP_EVERY == 0 && origins.size() > SWEEP_EVERY) {
      origins.values().removeIf(o -> isIdle(o, now));
    }
  }

  /**
   * Nothing waits, nothing is in flight, and no delay, pause or back-off is pending: forgetting the origin loses
   * nothing but its learnt response time (and a Crawl-delay, read again with robots.txt).
   */
  private static boolean isIdle(OriginQueue<?> q, long now) {
    return q.tasks.isEmpty() && q.inFlight == 0 && q.pace.isIdle(now);
  }

  /** Stops handing out tasks; waiting workers return {@code null}. Tasks held here stay unacknowledged. */
  public void stop() {
    lock.lock();
    try {
      stopped = true;
      frontier.stop();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** What waits here now, for a progress line. */
  public Snapshot snapshot() {
    lock.lock();
    try {
      long now = ticker.getAsLong();
      int paused = 0;
      for (OriginQueue<T> q : origins.values()) {
        if (!q.tasks.isEmpty() && q.nextStart - now > IDLE_RECHECK_NANOS) {
          paused++;
        }
      }
      return new Snapshot(held, origins.size(), paused);
    } finally {
      lock.unlock();
    }
  }

  /**
   * @param held tasks waiting in origin windows
   * @param origins origins with state (waiting tasks, tasks in flight, or a pending delay)
   * @param paused origins with waiting tasks that may not start for a while (a delay, a pause, a Crawl-delay)
   */
  public record Snapshot(int held, int origins, int paused) {}
}

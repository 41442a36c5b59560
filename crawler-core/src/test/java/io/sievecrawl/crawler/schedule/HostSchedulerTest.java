package io.sievecrawl.crawler.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.Sieve;
import io.sievecrawl.sieve.SieveStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The scheduler on a clock the test moves: politeness, bounded windows, requeues and forgetting idle origins. */
class HostSchedulerTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final CountingFrontier frontier = new CountingFrontier(Sieve.over(BloomFilter.create(100_000, 0.001),
      url -> url, "n"));

  private HostScheduler<String> scheduler(int hostConcurrency, Duration delay, int window, int maxHeld) {
    return new HostScheduler<>(frontier, HostSchedulerTest::originOf,
        Politeness.fixed(hostConcurrency, delay, window, maxHeld), now::get,
        HostScheduler.LeaseObserver.NONE);
  }

  private static String originOf(String url) {
    return url.substring(0, url.indexOf('/', 8));
  }

  /** Offers {@code count} tasks of one origin, leases the first, and lets the pass over the rest park. */
  private static void parkBehindABacklog(HostScheduler<String> s, int count) {
    for (int i = 0; i < count; i++) {
      s.offer("https://big.example/" + i);
    }
    assertEquals("https://big.example/0", s.poll().task());
    assertNull(s.poll(), "parked");
  }

  /** Polls until a lease comes, at most {@code times}: one poll reads at most 4,096 tasks, and workers ask again. */
  private static HostScheduler.Lease<String> pollUpTo(int times, HostScheduler<String> s) {
    HostScheduler.Lease<String> lease = null;
    for (int i = 0; i < times && lease == null; i++) {
      lease = s.poll();
    }
    return lease;
  }

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  @Test
  void startsOnOneOriginAreAtLeastTheDelayApart() {
    HostScheduler<String> s = scheduler(2, Duration.ofMillis(100), 64, 1_000);
    s.offer("https://a.example/1");
    s.offer("https://a.example/2");
    assertEquals("https://a.example/1", s.poll().task());
    assertNull(s.poll(), "the second may not start at once");
    advance(Duration.ofMillis(99));
    assertNull(s.poll(), "nor after 99 ms");
    advance(Duration.ofMillis(1));
    assertEquals("https://a.example/2", s.poll().task());
  }

  @Test
  void aTaskEndedWithoutARequestDoesNotSpendTheDelay() {
    HostScheduler<String> s = scheduler(1, Duration.ofSeconds(1), 64, 1_000);
    for (int i = 1; i <= 4; i++) {
      s.offer("https://a.example/" + i);
    }
    HostScheduler.Lease<String> fetched = s.poll();
    s.complete(fetched);
    advance(Duration.ofSeconds(1));
    HostScheduler.Lease<String> disallowed = s.poll();
    assertEquals("https://a.example/2", disallowed.task());
    s.completeUnfetched(disallowed);
    HostScheduler.Lease<String> next = s.poll();
    assertNotNull(next, "the skipped task's start is taken back: the next may start at once");
    assertEquals("https://a.example/3", next.task());
    s.complete(next);
    assertNull(s.poll(), "a task that was fetched keeps the delay");
    advance(Duration.ofSeconds(1));
    assertEquals("https://a.example/4", s.poll().task());
  }

  @Test
  void anUnfetchedTaskLeavesTheStartOfOneLeasedAfterItInPlace() {
    HostScheduler<String> s = scheduler(2, Duration.ofSeconds(1), 64, 1_000);
    for (int i = 1; i <= 3; i++) {
      s.offer("https://a.example/" + i);
    }
    HostScheduler.Lease<String> first = s.poll();
    advance(Duration.ofSeconds(1));
    HostScheduler.Lease<String> second = s.poll();
    s.completeUnfetched(first);
    assertNull(s.poll(), "the second lease's start still paces the origin");
    advance(Duration.ofSeconds(1));
    assertEquals("https://a.example/3", s.poll().task());
    s.complete(second);
  }

  @Test
  void hostConcurrencyCapsTheLeasesInFlightPerOrigin() {
    HostScheduler<String> s = scheduler(1, Duration.ZERO, 64, 1_000);
    s.offer("https://a.example/1");
    s.offer("https://a.example/2");
    HostScheduler.Lease<String> first = s.poll();
    assertNull(s.poll(), "one in flight per origin");
    s.complete(first);
    assertEquals("https://a.example/2", s.poll().task());
  }

  @Test
  void aPausedOriginDoesNotHoldUpAnother() {
    HostScheduler<String> s = scheduler(1, Duration.ofHours(1), 64, 1_000);
    for (int i = 0; i < 10; i++) {
      s.offer("https://slow.example/" + i);
    }
    s.offer("https://fast.example/1");
    assertEquals("https://slow.example/0", s.poll().task());
    assertEquals("https://fast.example/1", s.poll().task(), "found behind the slow origin's backlog");
  }

  @Test
  void aFullWindowSendsTasksBackToTheFrontierAndAPassThatPlacesNothingParks() {
    HostScheduler<String> s = scheduler(1, Duration.ofHours(1), 4, 1_000);
    for (int i = 0; i < 100; i++) {
      s.offer("https://big.example/" + i);
    }
    s.offer("https://other.example/1");
    HostScheduler.Lease<String> first = s.poll();
    assertEquals("https://big.example/0", first.task());
    assertEquals("https://other.example/1", s.poll().task());
    assertEquals(4, s.snapshot().held(), "at most the window waits in memory");
    long polls = frontier.polls.get();
    assertNull(s.poll());
    long pass = frontier.polls.get() - polls;
    assertTrue(pass <= 96 + 1, "one pass over the 95 tasks left, then it parks: " + pass);
    assertNull(s.poll());
    assertEquals(frontier.polls.get(), polls + pass, "parked: no pass again until a window has room");

    s.complete(first);
    advance(Duration.ofHours(1));
    assertEquals("https://big.example/1", s.poll().task(), "the window's oldest task");
    SieveStats stats = frontier.stats();
    assertEquals(100, stats.queued() + stats.inFlight(), "nothing lost: 101 offered, one completed");
  }

  @Test
  void aParkedSchedulerReadsOneTaskFromTheFrontierPerLeaseOfAPoliteSite() {
    HostScheduler<String> s = scheduler(1, Duration.ofSeconds(1), 4, 1_000);
    for (int i = 0; i < 1_000; i++) {
      s.offer("https://site.example/" + i);
    }
    HostScheduler.Lease<String> lease = s.poll();
    assertNull(s.poll(), "the delay holds; the pass over the backlog parks");
    for (int page = 1; page <= 50; page++) {
      s.complete(lease);
      s.offer("https://site.example/new-" + page); // the page's link: its origin's window is full
      advance(Duration.ofSeconds(1));
      long polls = frontier.polls.get();
      lease = s.poll();
      assertTrue(lease.task().startsWith("https://site.example/"), lease.task());
      assertNull(s.poll());
      assertTrue(frontier.polls.get() - polls <= 2,
          "a lease refills its window with one read, not a pass over the frontier: " + (frontier.polls.get() - polls));
    }
  }

  @Test
  void aParkedSchedulerFindsANewOriginBehindABacklogAndLooksForMoreOfItOnce() {
    HostScheduler<String> s = scheduler(1, Duration.ofHours(1), 4, 1_000);
    parkBehindABacklog(s, 500);
    s.offer("https://new.example/1");
    assertEquals("https://new.example/1", s.poll().task(), "an offer to an origin with room is looked for");
    long polls = frontier.polls.get();
    assertNull(s.poll());
    assertTrue(frontier.polls.get() - polls <= 500, "one pass for more of it: " + (frontier.polls.get() - polls));
    polls = frontier.polls.get();
    assertNull(s.poll());
    assertEquals(polls, frontier.polls.get(), "and then it is parked again");
  }

  @Test
  void anOfferMadeWhileAPassIsUnderWayIsNotLostWhenThePassParks() {
    HostScheduler<String> s = scheduler(1, Duration.ofHours(1), 1, 1_000);
    List<String> backlog = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) { // more than one poll reads: the pass spans two
      backlog.add("https://big.example/" + i);
    }
    s.offerAll(backlog);
    assertEquals("https://big.example/0", s.poll().task());
    assertNull(s.poll(), "half way through the first pass");
    s.offer("https://new.example/1"); // behind the point where that pass will wrap
    assertEquals("https://new.example/1", pollUpTo(3, s).task(), "still looked for after the pass parks");
  }

  @Test
  void moreNewOriginsThanMaxHeldAreAllFoundByAParkedScheduler() {
    HostScheduler<String> s = scheduler(1, Duration.ofHours(1), 2, 10);
    parkBehindABacklog(s, 100);
    Set<String> leased = new HashSet<>();
    for (int i = 0; i < 12; i++) { // more than maxHeld: the scheduler stops noting them and reads in full passes
      s.offer("https://n" + i + ".example/1");
    }
    for (int i = 0; i < 12; i++) {
      HostScheduler.Lease<String> lease = pollUpTo(2, s);
      assertNotNull(lease, "new origin " + i);
      leased.add(lease.task());
    }
    assertEquals(12, leased.size());
    assertTrue(s.snapshot().held() <= 10);
  }

  @Test
  void aParkedSchedulerLooksAtASharedFrontierEverySecondForTasksOthersAdded() {
    frontier.shared = true;
    HostScheduler<String> s = scheduler(1, Duration.ofHours(1), 4, 1_000);
    parkBehindABacklog(s, 100);
    frontier.offer("https://elsewhere.example/1"); // another agent's offer: the scheduler does not see it
    long polls = frontier.polls.get();
    assertNull(s.poll(), "not looked for within the second");
    assertEquals(polls, frontier.polls.get());
    advance(Duration.ofSeconds(1));
    assertEquals("https://elsewhere.example/1", s.poll().task(), "found by the look a second later");
  }

  /**
   * Random offers, leases, completions and clock steps against a model of what may start: whenever a poll finds
   * nothing, no origin that may start now has a task left, wherever that task waits. A task lost behind a parked
   * scheduler fails this, as does one handed out twice. Odd seeds start behind a backlog longer than one pull reads,
   * so that passes span several pulls and leases and offers come in the middle of them.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void aPollFindsNothingOnlyWhenNoOriginThatMayStartHasATask(long seed) {
    Random random = new Random(seed);
    Duration delay = Duration.ofMillis(100);
    HostScheduler<String> s = scheduler(1, delay, 2, 1_000);
    int origins = 6;
    int[] waiting = new int[origins];
    boolean[] inFlight = new boolean[origins];
    long[] lastStart = new long[origins];
    java.util.Arrays.fill(lastStart, Long.MIN_VALUE);
    List<HostScheduler.Lease<String>> leases = new ArrayList<>();
    Set<String> handedOut = new HashSet<>();
    int offered = 0;
    if (seed % 2 == 1) {
      List<String> backlog = new ArrayList<>();
      for (int i = 0; i < 5_000; i++) {
        backlog.add("https://o0.example/" + offered++);
      }
      s.offerAll(backlog);
      waiting[0] = backlog.size();
    }
    for (int step = 0; step < 3_000; step++) {
      switch (random.nextInt(4)) {
        case 0 -> {
          List<String> batch = new ArrayList<>();
          for (int i = random.nextInt(4); i >= 0; i--) {
            int o = random.nextInt(origins);
            batch.add("https://o" + o + ".example/" + offered++);
            waiting[o]++;
          }
          assertEquals(batch.size(), s.offerAll(batch).cardinality());
        }
        case 1 -> {
          HostScheduler.Lease<String> lease = pollUpTo(4, s);
          if (lease == null) {
            for (int o = 0; o < origins; o++) {
              boolean mayStart = !inFlight[o]
                  && (lastStart[o] == Long.MIN_VALUE || now.get() - lastStart[o] >= delay.toNanos());
              assertTrue(!mayStart || waiting[o] == 0, "seed " + seed + " step " + step + ": origin " + o
                  + " may start and has " + waiting[o] + " tasks, but the poll found none");
            }
          } else {
            int o = lease.task().charAt(9) - '0';
            assertTrue(handedOut.add(lease.task()), "handed out twice: " + lease.task());
            assertTrue(!inFlight[o] && waiting[o] > 0);
            inFlight[o] = true;
            waiting[o]--;
            lastStart[o] = now.get();
            leases.add(lease);
          }
        }
        case 2 -> {
          if (!leases.isEmpty()) {
            HostScheduler.Lease<String> lease = leases.remove(random.nextInt(leases.size()));
            s.complete(lease);
            inFlight[lease.task().charAt(9) - '0'] = false;
          }
        }
        default -> advance(Duration.ofMillis(random.nextInt(60)));
      }
    }
    assertEquals(offered, handedOut.size() + java.util.Arrays.stream(waiting).sum());
  }

  @Test
  void noMoreThanMaxHeldTasksWaitInMemory() {
    HostScheduler<String> s = scheduler(1, Duration.ofHours(1), 4, 10);
    for (int i = 0; i < 50; i++) {
      s.offer("https://host" + i + ".example/");
    }
    for (int i = 0; i < 50; i++) {
      assertNotNull(s.poll(), "every origin is ready once");
    }
    HostScheduler<String> bounded = scheduler(1, Duration.ofHours(1), 4, 10);
    for (int i = 0; i < 50; i++) {
      bounded.offer("https://b" + i + ".example/1");
      bounded.offer("https://b" + i + ".example/2");
    }
    for (int i = 0; i < 20; i++) {
      bounded.poll();
    }
    assertTrue(bounded.snapshot().held() <= 10, "held " + bounded.snapshot().held());
  }

  @Test
  void anIdleOriginIsForgotten() {
    HostScheduler<String> s = scheduler(1, Duration.ofMillis(10), 64, 1_000);
    s.offer("https://a.example/1");
    HostScheduler.Lease<String> lease = s.poll();
    assertEquals(1, s.snapshot().origins());
    advance(Duration.ofMillis(10));
    s.complete(lease);
    assertEquals(0, s.snapshot().origins(), "nothing waits, nothing in flight, no delay pending");
    assertTrue(frontier.isFinished());
  }

  @Test
  void aRetryWaitsAndKeepsItsPlaceAtTheFront() {
    HostScheduler<String> s = scheduler(1, Duration.ZERO, 64, 1_000);
    s.offer("https://a.example/1");
    s.offer("https://a.example/2");
    HostScheduler.Lease<String> lease = s.poll();
    s.retryLater(lease, "https://a.example/1#retry", Duration.ofSeconds(2));
    assertNull(s.poll());
    advance(Duration.ofSeconds(2));
    HostScheduler.Lease<String> retry = s.poll();
    assertEquals("https://a.example/1#retry", retry.task());
    assertEquals(lease.claim().id(), retry.claim().id(), "the same frontier claim");
  }
  @Test
  void whileTheOnlyOriginWaitsOutItsDelayOneWaitingWorkerWatchesTheClock() throws InterruptedException {
    WatchedClock clock = new WatchedClock();
    HostScheduler<String> s = new HostScheduler<>(frontier, HostSchedulerTest::originOf,
        Politeness.fixed(1, Duration.ofMillis(1), 64, 1_000), clock, HostScheduler.LeaseObserver.NONE);
    s.offer("https://a.example/1");
    s.offer("https://a.example/2");
    s.complete(s.poll()); // a.example/2 may start 1 ms later on the clock, which stands still for now
    BlockingQueue<Optional<HostScheduler.Lease<String>>> leases = new LinkedBlockingQueue<>();
    List<Thread> workers = startAcquiring(6, s, Duration.ofMinutes(1), leases);
    awaitTrue(() -> workers.stream().allMatch(w -> clock.readsBy(w) >= 2), "every worker waits");

    // the one watching wakes every millisecond (its wait ends when the origin may start); the others sleep
    Map<Thread, Integer> before = clock.snapshot();
    awaitTrue(() -> clock.total() >= sum(before) + 100, "100 more reads of the clock");
    Set<Thread> woke = new HashSet<>();
    clock.snapshot().forEach((thread, reads) -> {
      if (reads > before.getOrDefault(thread, 0)) {
        woke.add(thread);
      }
    });
    assertTrue(woke.size() <= 2, "threads that read the clock (one, or two with a spurious wake-up): " + woke);

    clock.nanos.addAndGet(Duration.ofMillis(1).toNanos());
    Optional<HostScheduler.Lease<String>> lease = leases.poll(1, TimeUnit.MINUTES);
    assertEquals("https://a.example/2", lease.orElseThrow().task(), "the origin's start is not missed");
    s.stop();
    for (Thread worker : workers) {
      worker.join(Duration.ofMinutes(1));
    }
    assertEquals(5, leases.size());
    assertTrue(leases.stream().allMatch(Optional::isEmpty), "the stop wakes every other worker");
  }

  @Test
  void aWorkerThatTakesTheNextStartLeavesTheClockToAnother() throws InterruptedException {
    WatchedClock clock = new WatchedClock();
    HostScheduler<String> s = new HostScheduler<>(frontier, HostSchedulerTest::originOf,
        Politeness.fixed(1, Duration.ofMillis(2), 64, 1_000), clock, HostScheduler.LeaseObserver.NONE);
    for (String url : List.of("https://a.example/1", "https://b.example/1", "https://a.example/2",
        "https://b.example/2")) {
      s.offer(url);
    }
    s.complete(s.poll());
    clock.nanos.addAndGet(Duration.ofMillis(1).toNanos());
    s.complete(s.poll()); // a.example/2 may start at 2 ms, b.example/2 at 3 ms
    BlockingQueue<Optional<HostScheduler.Lease<String>>> leases = new LinkedBlockingQueue<>();
    List<Thread> workers = startAcquiring(4, s, Duration.ofMinutes(10), leases);
    awaitTrue(() -> workers.stream().allMatch(w -> clock.readsBy(w) >= 2), "every worker waits");

    clock.nanos.addAndGet(Duration.ofMillis(5).toNanos()); // both may start now; only the watching worker knows
    Set<String> started = new HashSet<>();
    for (int i = 0; i < 2; i++) {
      // without a hand-over the second start would wait for a sleeping worker's ten minutes to run out
      Optional<HostScheduler.Lease<String>> lease = leases.poll(1, TimeUnit.MINUTES);
      assertNotNull(lease, "start " + (i + 1) + " was missed");
      started.add(lease.orElseThrow().task());
    }
    assertEquals(Set.of("https://a.example/2", "https://b.example/2"), started);
    s.stop();
    for (Thread worker : workers) {
      worker.join(Duration.ofMinutes(1));
    }
    assertEquals(2, leases.size());
  }

  @Test
  void aTaskThatReachesASharedFrontierUnannouncedIsFoundWhileTheNextStartIsFarOff() throws InterruptedException {
    frontier.shared = true;
    WatchedClock clock = new WatchedClock();
    HostScheduler<String> s = new HostScheduler<>(frontier, HostSchedulerTest::originOf,
        Politeness.fixed(1, Duration.ofMinutes(30), 64, 1_000), clock, HostScheduler.LeaseObserver.NONE);
    s.offer("https://a.example/1");
    s.offer("https://a.example/2");
    s.complete(s.poll()); // a.example/2 may start in 30 minutes
    BlockingQueue<Optional<HostScheduler.Lease<String>>> leases = new LinkedBlockingQueue<>();
    List<Thread> workers = startAcquiring(3, s, Duration.ofMinutes(30), leases);
    awaitTrue(() -> workers.stream().allMatch(w -> clock.readsBy(w) >= 2), "every worker waits");

    frontier.offer("https://b.example/1"); // as another agent adds to a shared frontier: no signal here
    Optional<HostScheduler.Lease<String>> lease = leases.poll(1, TimeUnit.MINUTES);
    assertNotNull(lease, "the timekeeper looks again within its recheck, not at the next start");
    assertEquals("https://b.example/1", lease.orElseThrow().task());
    s.stop();
    for (Thread worker : workers) {
      worker.join(Duration.ofMinutes(1));
    }
  }

  /** {@code count} threads that each acquire one lease (empty: none came) into {@code leases}. */
  private static List<Thread> startAcquiring(int count, HostScheduler<String> s, Duration timeout,
      BlockingQueue<Optional<HostScheduler.Lease<String>>> leases) {
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      workers.add(Thread.ofPlatform().daemon().start(() -> {
        try {
          leases.add(Optional.ofNullable(s.acquire(timeout.toNanos(), TimeUnit.NANOSECONDS)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
    }
    return workers;
  }

  /** A clock the test moves, counting who reads it: a worker reads it each time it wakes in acquire. */
  private static final class WatchedClock implements LongSupplier {
    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final Map<Thread, AtomicInteger> reads = new ConcurrentHashMap<>();

    @Override
    public long getAsLong() {
      reads.computeIfAbsent(Thread.currentThread(), t -> new AtomicInteger()).incrementAndGet();
      return nanos.get();
    }

    int readsBy(Thread thread) {
      AtomicInteger n = reads.get(thread);
      return n == null ? 0 : n.get();
    }

    Map<Thread, Integer> snapshot() {
      Map<Thread, Integer> copy = new HashMap<>();
      reads.forEach((thread, n) -> copy.put(thread, n.get()));
      return copy;
    }

    int total() {
      return sum(snapshot());
    }
  }

  private static int sum(Map<Thread, Integer> reads) {
    return reads.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** Polls {@code condition} (it changes in other threads) for up to a minute. */
  private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() - deadline < 0, "timed out waiting until: " + what);
      Thread.sleep(1);
    }
  }


  @Test
  void parkedOnASharedFrontierTheSchedulerTakesAnOriginsNextTaskFromItsOwnShard() {
    Map<Boolean, Integer> requeues = new HashMap<>();
    for (boolean byShard : List.of(true, false)) {
      ShardedFrontier shared = new ShardedFrontier(byShard);
      HostScheduler<String> s = new HostScheduler<>(shared, HostSchedulerTest::originOf,
          Politeness.fixed(1, Duration.ZERO, 4, 1_000), now::get, HostScheduler.LeaseObserver.NONE);
      for (String origin : List.of("a", "b", "c", "d", "e")) {
        for (int i = 0; i < 100; i++) { // a page's links: many of its own origin together
          s.offer("https://" + origin + ".example/" + i);
        }
      }
      java.util.ArrayDeque<HostScheduler.Lease<String>> inFlight = new java.util.ArrayDeque<>();
      while (inFlight.size() < 5) {
        inFlight.add(pollUpTo(10, s));
      }
      assertNull(s.poll(), "every origin busy and every window full: a pass over the frontier parks");
      int beforeSteadyState = shared.requeues;
      for (int i = 0; i < 400; i++) {
        s.complete(inFlight.poll());
        HostScheduler.Lease<String> lease = pollUpTo(10, s);
        assertNotNull(lease, "lease " + i);
        inFlight.add(lease);
      }
      requeues.put(byShard, shared.requeues - beforeSteadyState);
    }
    // Looking in the origin's own shard sends nothing round; a look through the one stream sends round the other
    // origins' tasks that come before the origin's next one.
    assertEquals(0, requeues.get(true), "by shard: " + requeues);
    assertTrue(requeues.get(false) > 400, "through the one stream: " + requeues);
  }

  /**
   * A shared frontier that keeps every origin's tasks apart, as Redis keeps a stream per shard: {@link #poll} hands
   * out the oldest task, {@link #pollFrom} the oldest of the origin (or the oldest, when {@code byShard} is off).
   * Counts the tasks sent back to the tail.
   */
  private static final class ShardedFrontier implements Frontier<String> {
    private final boolean byShard;
    private final Map<Long, Claim<String>> waiting = new LinkedHashMap<>(); // in id order: oldest first
    private final BloomFilter filter = BloomFilter.create(1_000, 0.01);
    private long nextId;
    private int inFlight;
    int requeues;

    ShardedFrontier(boolean byShard) {
      this.byShard = byShard;
    }

    @Override
    public boolean offer(String task) {
      waiting.put(nextId, new Claim<>(task, nextId++));
      return true;
    }

    @Override
    public Claim<String> poll() {
      return take(waiting.values().stream().findFirst().orElse(null));
    }

    @Override
    public Claim<String> pollFrom(String origin) {
      return byShard ? take(waiting.values().stream().filter(c -> originOf(c.task()).equals(origin)).findFirst()
          .orElse(null)) : poll();
    }

    private Claim<String> take(Claim<String> claim) {
      if (claim != null) {
        waiting.remove(claim.id());
        inFlight++;
      }
      return claim;
    }

    @Override
    public void complete(Claim<String> claim) {
      inFlight--;
    }

    @Override
    public long requeue(Claim<String> claim) {
      inFlight--;
      requeues++;
      offer(claim.task());
      return nextId - 1;
    }

    @Override
    public boolean isFinished() {
      return waiting.isEmpty() && inFlight == 0;
    }

    @Override
    public void stop() {}

    @Override
    public SieveStats stats() {
      return SieveStats.of(nextId, 0, waiting.size(), inFlight, filter, 0);
    }

    @Override
    public boolean isShared() {
      return true;
    }
  }

  /** Counts polls, to see when the scheduler reads the frontier. */
  private static final class CountingFrontier implements Frontier<String> {
    final AtomicLong polls = new AtomicLong();
    boolean shared;
    private final Frontier<String> inner;

    CountingFrontier(Frontier<String> inner) {
      this.inner = inner;
    }

    @Override
    public boolean offer(String task) {
      return inner.offer(task);
    }

    @Override
    public Claim<String> poll() {
      polls.incrementAndGet();
      return inner.poll();
    }

    @Override
    public void complete(Claim<String> claim) {
      inner.complete(claim);
    }

    @Override
    public long requeue(Claim<String> claim) {
      return inner.requeue(claim);
    }

    @Override
    public boolean isFinished() {
      return inner.isFinished();
    }

    @Override
    public void stop() {
      inner.stop();
    }

    @Override
    public SieveStats stats() {
      return inner.stats();
    }

    @Override
    public boolean isShared() {
      return shared;
    }

  }
}

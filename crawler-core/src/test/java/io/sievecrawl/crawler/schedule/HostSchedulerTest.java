package io.sievecrawl.crawler.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.Sieve;
import io.sievecrawl.sieve.SieveStats;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The scheduler on a clock the test moves: politeness, origins taking turns, a bounded set of origins at hand. */
class HostSchedulerTest {
  private final FakeClock clock = new FakeClock();
  private final CountingFrontier frontier = new CountingFrontier(Sieve.over(BloomFilter.create(100_000, 0.001),
      url -> url, HostSchedulerTest::originOf, "n"));

  private HostScheduler<String> scheduler(int hostConcurrency, Duration delay) {
    return scheduler(hostConcurrency, delay, Politeness.DEFAULT_MAX_ACTIVE);
  }

  private HostScheduler<String> scheduler(int hostConcurrency, Duration delay, int maxActive) {
    return new HostScheduler<>(frontier, Politeness.fixed(hostConcurrency, delay, maxActive), clock,
        HostScheduler.LeaseObserver.NONE);
  }

  private static String originOf(String url) {
    return url.substring(0, url.indexOf('/', 8));
  }

  private void advance(Duration d) {
    clock.advance(d);
  }

  @Test
  void startsOnOneOriginAreAtLeastTheDelayApart() {
    HostScheduler<String> s = scheduler(2, Duration.ofMillis(100));
    s.offer("https://a.example/1");
    s.offer("https://a.example/2");
    assertEquals("https://a.example/1", s.poll().task());
    assertNull(s.poll(), "the second may not start at once");
    advance(Duration.ofMillis(99));
    assertNull(s.poll(), "nor after 99 ms");
    advance(Duration.ofMillis(1));
    assertEquals("https://a.example/2", s.poll().task());
  }

  /** A worker held up between its lease and its request (a starved machine): the delay runs from the request. */
  @Test
  void theDelayRunsFromWhenTheRequestIsSentNotFromWhenItWasLeased() {
    List<Long> sent = new ArrayList<>();
    HostScheduler<String> s = new HostScheduler<>(frontier, Politeness.fixed(1, Duration.ofSeconds(1), 100), clock,
        new HostScheduler.LeaseObserver() {
          @Override
          public void leased(String origin, long nanos) { }

          @Override
          public void sent(String origin, long nanos) {
            sent.add(nanos);
          }
        });
    s.offer("https://a.example/1");
    s.offer("https://a.example/2");
    long start = clock.nanos();
    HostScheduler.Lease<String> first = s.poll();
    advance(Duration.ofMillis(990));
    assertEquals(0, s.sending(first), "the first request may go");
    s.complete(first);
    advance(Duration.ofMillis(10));
    assertNull(s.poll(), "a second after the lease, 10 ms after the request: too soon");
    advance(Duration.ofMillis(989));
    assertNull(s.poll(), "999 ms after the request");
    advance(Duration.ofMillis(1));
    HostScheduler.Lease<String> second = s.poll();
    assertEquals("https://a.example/2", second.task());
    assertEquals(0, s.sending(second));
    assertEquals(List.of(start + 990_000_000L, start + 1_990_000_000L), sent);
  }

  /**
   * Two requests in flight at once on one origin: the one leased first and sent last waits for the delay after the
   * other, and goes then.
   */
  @Test
  void aRequestSentAfterOneLeasedLaterWaitsTheDelayAfterIt() {
    HostScheduler<String> s = scheduler(2, Duration.ofSeconds(1));
    for (int i = 1; i <= 3; i++) {
      s.offer("https://a.example/" + i);
    }
    HostScheduler.Lease<String> first = s.poll();
    advance(Duration.ofSeconds(1));
    HostScheduler.Lease<String> second = s.poll();
    advance(Duration.ofMillis(5));
    assertEquals(0, s.sending(second));
    advance(Duration.ofMillis(5));
    assertEquals(Duration.ofMillis(995).toNanos(), s.sending(first), "5 ms after the other: it waits 995 ms more");
    s.postpone(first, Duration.ofNanos(s.sending(first)));
    advance(Duration.ofMillis(994));
    assertNull(s.poll(), "1,999 ms after the other was sent");
    advance(Duration.ofMillis(1));
    HostScheduler.Lease<String> again = s.poll();
    assertEquals("https://a.example/1", again.task(), "the postponed request goes first");
    assertEquals(0, s.sending(again));
  }

  @Test
  void aTaskEndedWithoutARequestDoesNotSpendTheDelay() {
    HostScheduler<String> s = scheduler(1, Duration.ofSeconds(1));
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
    HostScheduler<String> s = scheduler(2, Duration.ofSeconds(1));
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
    HostScheduler<String> s = scheduler(1, Duration.ZERO);
    s.offer("https://a.example/1");
    s.offer("https://a.example/2");
    HostScheduler.Lease<String> first = s.poll();
    assertNull(s.poll(), "one in flight per origin");
    s.complete(first);
    assertEquals("https://a.example/2", s.poll().task());
  }

  @Test
  void aSlowOriginsBacklogDoesNotHoldUpAnotherAndCostsOneFrontierReadPerLease() {
    HostScheduler<String> s = scheduler(1, Duration.ofHours(1));
    for (int i = 0; i < 10_000; i++) {
      s.offer("https://slow.example/" + i);
    }
    s.offer("https://fast.example/1");
    long reads = frontier.polls.get();
    assertEquals("https://slow.example/0", s.poll().task());
    assertEquals("https://fast.example/1", s.poll().task(), "found without reading the slow origin's backlog");
    assertNull(s.poll());
    assertEquals(2, frontier.polls.get() - reads, "one read of each origin's queue");
  }

  @Test
  void dueOriginsTakeTurnsInTheOrderTheyBecameDue() {
    HostScheduler<String> s = scheduler(1, Duration.ofSeconds(4));
    for (String origin : List.of("a", "b", "c")) {
      for (int i = 0; i < 3; i++) {
        s.offer("https://" + origin + ".example/" + i);
      }
    }
    List<String> order = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      for (HostScheduler.Lease<String> l = s.poll(); l != null; l = s.poll()) {
        order.add(l.task());
        s.complete(l);
        advance(Duration.ofMillis(1));
      }
      advance(Duration.ofSeconds(4));
    }
    assertEquals(List.of("https://a.example/0", "https://b.example/0", "https://c.example/0",
        "https://a.example/1", "https://b.example/1", "https://c.example/1",
        "https://a.example/2", "https://b.example/2", "https://c.example/2"), order);
  }

  @Test
  void anOriginWhoseQueueRanDryGoesBackToTheFrontierOnceItsDelayIsOver() {
    HostScheduler<String> s = scheduler(1, Duration.ofMillis(10));
    s.offer("https://a.example/1");
    HostScheduler.Lease<String> lease = s.poll();
    assertEquals(1, s.snapshot().active());
    s.complete(lease);
    assertEquals(1, s.snapshot().active(), "its delay is still to keep");
    advance(Duration.ofMillis(10));
    assertNull(s.poll());
    assertEquals(0, s.snapshot().active(), "nothing waits, nothing in flight, no delay pending");
    assertTrue(frontier.isFinished());
    s.offer("https://a.example/2");
    assertEquals("https://a.example/2", s.poll().task(), "an offer brings it back");
  }

  @Test
  void anOfferToAnOriginWaitingOutItsDelayIsLeasedWhenTheDelayEnds() {
    HostScheduler<String> s = scheduler(1, Duration.ofSeconds(1));
    s.offer("https://a.example/1");
    s.complete(s.poll());
    s.offer("https://a.example/2");
    assertNull(s.poll());
    advance(Duration.ofSeconds(1));
    assertEquals("https://a.example/2", s.poll().task());
  }

  @Test
  void originsBeyondMaxActiveTakeTurnsAndTheSetAtHandStaysBounded() {
    HostScheduler<String> s = scheduler(1, Duration.ZERO, 3);
    int origins = 10;
    int perOrigin = 2 * HostScheduler.TURN_LEASES;
    for (int i = 0; i < perOrigin; i++) {
      for (int o = 0; o < origins; o++) {
        s.offer("https://o" + o + ".example/" + i);
      }
    }
    Map<String, Integer> firstLease = new HashMap<>();
    int leased = 0;
    for (HostScheduler.Lease<String> l = s.poll(); l != null; l = s.poll()) {
      firstLease.putIfAbsent(l.origin(), leased++);
      assertTrue(s.snapshot().active() <= 3, "at most maxActive origins at hand");
      s.complete(l);
    }
    assertEquals(origins * perOrigin, leased, "every task");
    assertEquals(origins, firstLease.size());
    int lastStarted = firstLease.values().stream().max(Integer::compare).orElseThrow();
    assertTrue(lastStarted < origins * perOrigin / 2, "the last origin got its first turn after " + lastStarted
        + " leases: origins beyond the set at hand take turns, they do not wait for the others to finish");
  }

  /**
   * Random offers, leases, completions and clock steps against a model of what may start: whenever a poll finds
   * nothing, no origin that may start now has a task left, wherever that task waits; no task is handed out twice;
   * each origin's tasks go in the order they were offered.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void aPollFindsNothingOnlyWhenNoOriginThatMayStartHasATask(long seed) {
    Random random = new Random(seed);
    Duration delay = Duration.ofMillis(100);
    HostScheduler<String> s = scheduler(1, delay);
    int origins = 6;
    int[] waiting = new int[origins];
    int[] lastIndex = new int[origins];
    java.util.Arrays.fill(lastIndex, -1);
    boolean[] inFlight = new boolean[origins];
    long[] lastStart = new long[origins];
    java.util.Arrays.fill(lastStart, Long.MIN_VALUE);
    List<HostScheduler.Lease<String>> leases = new ArrayList<>();
    Set<String> handedOut = new HashSet<>();
    int offered = 0;
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
          HostScheduler.Lease<String> lease = s.poll();
          if (lease == null) {
            for (int o = 0; o < origins; o++) {
              boolean mayStart = !inFlight[o]
                  && (lastStart[o] == Long.MIN_VALUE || clock.nanos() - lastStart[o] >= delay.toNanos());
              assertTrue(!mayStart || waiting[o] == 0, "seed " + seed + " step " + step + ": origin " + o
                  + " may start and has " + waiting[o] + " tasks, but the poll found none");
            }
          } else {
            int o = lease.task().charAt(9) - '0';
            int index = Integer.parseInt(lease.task().substring(lease.task().lastIndexOf('/') + 1));
            assertTrue(handedOut.add(lease.task()), "handed out twice: " + lease.task());
            assertTrue(!inFlight[o] && waiting[o] > 0);
            assertTrue(clock.nanos() - lastStart[o] >= delay.toNanos() || lastStart[o] == Long.MIN_VALUE,
                "started within the delay: " + lease.task());
            assertTrue(index > lastIndex[o], "out of order: " + lease.task());
            lastIndex[o] = index;
            inFlight[o] = true;
            waiting[o]--;
            lastStart[o] = clock.nanos();
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
  void aRetryWaitsAndKeepsItsPlaceAtTheFront() {
    HostScheduler<String> s = scheduler(1, Duration.ZERO);
    s.offer("https://a.example/1");
    s.offer("https://a.example/2");
    HostScheduler.Lease<String> lease = s.poll();
    s.retryLater(lease, "https://a.example/1#retry", Duration.ofSeconds(2));
    assertNull(s.poll());
    assertEquals(1, s.snapshot().heldBack());
    assertEquals(1, s.snapshot().retries());
    advance(Duration.ofSeconds(2));
    HostScheduler.Lease<String> retry = s.poll();
    assertEquals("https://a.example/1#retry", retry.task());
    assertEquals(lease.claim().id(), retry.claim().id(), "the same frontier claim");
  }

  @Test
  void aTaskPostponedForRobotsTxtTakesItsStartBackAndGoesOnceTheOriginIsResumed() {
    HostScheduler<String> s = scheduler(1, Duration.ofSeconds(20));
    s.offer("https://a.example/1");
    s.offer("https://a.example/2");
    HostScheduler.Lease<String> first = s.poll();
    s.postpone(first, Duration.ofHours(1)); // robots.txt is being fetched
    advance(Duration.ofMillis(5));
    assertNull(s.poll(), "paused until robots.txt arrives");
    s.resume("https://a.example");
    HostScheduler.Lease<String> again = s.poll();
    assertNotNull(again, "no request was made: the first page goes at once, not 20 s later");
    assertEquals("https://a.example/1", again.task());
    s.complete(again);
    advance(Duration.ofSeconds(19));
    assertNull(s.poll(), "the page's own start paces the next");
    advance(Duration.ofSeconds(1));
    assertEquals("https://a.example/2", s.poll().task());
  }

  @Test
  void theSnapshotTellsDueOriginsFromOnesWaitingOutTheirDelayOrHeldBack() {
    HostScheduler<String> s = scheduler(1, Duration.ofSeconds(1));
    for (String origin : List.of("a", "b", "c")) {
      s.offer("https://" + origin + ".example/1");
      s.offer("https://" + origin + ".example/2");
    }
    s.complete(s.poll());
    HostScheduler.Lease<String> b = s.poll();
    s.pause("https://b.example", Duration.ofMinutes(1));
    s.complete(b);
    SchedulerSnapshot snapshot = s.snapshot();
    assertEquals(2, snapshot.active(), "c waits in the frontier's line");
    assertEquals(1, snapshot.waitingOnDelay());
    assertEquals(1, snapshot.heldBack());
    assertEquals(0, snapshot.due());
  }

  @Test
  void whileTheOnlyOriginWaitsOutItsDelayOneWaitingWorkerWatchesTheClock() throws InterruptedException {
    WatchedClock clock = new WatchedClock();
    HostScheduler<String> s = new HostScheduler<>(frontier, Politeness.fixed(1, Duration.ofMillis(1), 1_000), clock,
        HostScheduler.LeaseObserver.NONE);
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

    clock.time.advance(Duration.ofMillis(1));
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
    HostScheduler<String> s = new HostScheduler<>(frontier, Politeness.fixed(1, Duration.ofMillis(2), 1_000), clock,
        HostScheduler.LeaseObserver.NONE);
    for (String url : List.of("https://a.example/1", "https://b.example/1", "https://a.example/2",
        "https://b.example/2")) {
      s.offer(url);
    }
    s.complete(s.poll());
    clock.time.advance(Duration.ofMillis(1));
    s.complete(s.poll()); // a.example/2 may start at 2 ms, b.example/2 at 3 ms
    BlockingQueue<Optional<HostScheduler.Lease<String>>> leases = new LinkedBlockingQueue<>();
    List<Thread> workers = startAcquiring(4, s, Duration.ofMinutes(10), leases);
    awaitTrue(() -> workers.stream().allMatch(w -> clock.readsBy(w) >= 2), "every worker waits");

    clock.time.advance(Duration.ofMillis(5)); // both may start now; only the watching worker knows
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
  void anOriginThatComesIntoASharedFrontiersLineUnannouncedIsFoundWhileTheNextStartIsFarOff()
      throws InterruptedException {
    frontier.shared = true;
    WatchedClock clock = new WatchedClock();
    HostScheduler<String> s = new HostScheduler<>(frontier, Politeness.fixed(1, Duration.ofMinutes(30), 1_000), clock,
        HostScheduler.LeaseObserver.NONE);
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

  /**
   * A shared frontier's answer is a round trip to Redis: while one worker waits for it (here, a.example's next task),
   * another worker leases from another origin, and a request is reported sent. Failed before the scheduler let its
   * lock go around frontier calls: every worker queued behind the one round trip.
   */
  @Test
  void aWorkerWaitingForASharedFrontiersAnswerHoldsUpNoOther() throws Exception {
    frontier.shared = true;
    HostScheduler<String> s = scheduler(1, Duration.ZERO);
    s.offer("https://a.example/1");
    s.offer("https://b.example/1");
    CountDownLatch reading = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    frontier.beforePoll = queue -> {
      if (queue.equals("https://a.example")) {
        reading.countDown();
        try {
          answer.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    ExecutorService workers = Executors.newFixedThreadPool(2);
    CompletableFuture<HostScheduler.Lease<String>> first = CompletableFuture.supplyAsync(s::poll, workers);
    try {
      assertTrue(reading.await(1, TimeUnit.MINUTES), "the first worker reads a.example's next task");
      CompletableFuture<HostScheduler.Lease<String>> second = CompletableFuture.supplyAsync(() -> {
        HostScheduler.Lease<String> lease = s.poll();
        s.sending(lease);
        return lease;
      }, workers);
      // a failure bound, not a wait for something to happen: with the lock held across the read this never returns
      assertEquals("https://b.example/1", second.get(1, TimeUnit.MINUTES).task(),
          "another worker leased and sent while the frontier had not answered the first");
    } finally {
      answer.countDown();
      workers.shutdown();
    }
    assertEquals("https://a.example/1", first.get(1, TimeUnit.MINUTES).task());
  }

  @Test
  void anEmptyFrontierIsNotTheEndWhileAProducerMayStillOffer() throws InterruptedException {
    WatchedClock clock = new WatchedClock();
    HostScheduler<String> s = new HostScheduler<>(frontier, Politeness.fixed(1, Duration.ZERO, 1_000), clock,
        HostScheduler.LeaseObserver.NONE);
    assertTrue(s.isFinished(), "nothing queued, nobody producing");
    s.producerStarts();
    assertFalse(s.isFinished());
    BlockingQueue<Optional<HostScheduler.Lease<String>>> leases = new LinkedBlockingQueue<>();
    List<Thread> workers = startAcquiring(2, s, Duration.ofMinutes(30), leases);
    awaitTrue(() -> workers.stream().allMatch(w -> clock.readsBy(w) >= 2), "every worker waits");
    assertTrue(leases.isEmpty(), "no worker gave up on the empty frontier");

    s.offer("https://a.example/1");
    HostScheduler.Lease<String> lease = leases.poll(1, TimeUnit.MINUTES).orElseThrow();
    assertEquals("https://a.example/1", lease.task());
    s.complete(lease);
    s.producerDone();
    assertEquals(Optional.empty(), leases.poll(1, TimeUnit.MINUTES), "the other worker sees the end");
    assertTrue(s.isFinished());
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
  private static final class WatchedClock implements Ticker {
    final FakeClock time = new FakeClock();
    private final Map<Thread, AtomicInteger> reads = new ConcurrentHashMap<>();

    @Override
    public long nanos() {
      reads.computeIfAbsent(Thread.currentThread(), t -> new AtomicInteger()).incrementAndGet();
      return time.nanos();
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

  /** Counts reads of queues, to see when the scheduler reads the frontier; plays a shared one when asked. */
  private static final class CountingFrontier implements Frontier<String> {
    final AtomicLong polls = new AtomicLong();
    volatile boolean shared;
    volatile Consumer<String> beforePoll = queue -> { }; // runs in the polling thread, as a round trip would
    private final Frontier<String> inner;

    CountingFrontier(Frontier<String> inner) {
      this.inner = inner;
    }

    @Override
    public boolean offer(String task) {
      return inner.offer(task);
    }

    @Override
    public String nextQueue() {
      return inner.nextQueue();
    }

    @Override
    public Claim<String> poll(String queue) {
      polls.incrementAndGet();
      beforePoll.accept(queue);
      return inner.poll(queue);
    }

    @Override
    public void releaseQueue(String queue) {
      inner.releaseQueue(queue);
    }

    @Override
    public void complete(Claim<String> claim) {
      inner.complete(claim);
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

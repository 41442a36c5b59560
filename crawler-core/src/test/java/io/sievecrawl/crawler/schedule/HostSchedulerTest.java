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
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The scheduler on a clock the test moves: politeness, bounded windows, requeues and forgetting idle origins. */
class HostSchedulerTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final CountingFrontier frontier = new CountingFrontier(Sieve.over(BloomFilter.create(10_000, 0.001),
      url -> url, "n"));

  private HostScheduler<String> scheduler(int hostConcurrency, Duration delay, int window, int maxHeld) {
    return new HostScheduler<>(frontier, HostSchedulerTest::originOf,
        Politeness.fixed(hostConcurrency, delay, window, maxHeld), now::get,
        HostScheduler.LeaseObserver.NONE);
  }

  private static String originOf(String url) {
    return url.substring(0, url.indexOf('/', 8));
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

  /** Counts polls, to see when the scheduler reads the frontier. */
  private static final class CountingFrontier implements Frontier<String> {
    final AtomicLong polls = new AtomicLong();
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

  }
}

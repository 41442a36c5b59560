package io.sievecrawl.crawler.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.QueueKeys;
import io.sievecrawl.sieve.Sieve;
import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An origin's lanes (its pages' requisites) on the scheduler's own clock: served before the origin's own queue, at the
 * origin's one pace, and alone once the own queues close.
 */
class QueueLanesTest {
  private final FakeClock clock = new FakeClock();
  // A task "R url" is a requisite: it waits in its origin's lane; a plain URL in the origin's own queue.
  private final Sieve<String> frontier = Sieve.over(BloomFilter.create(100_000, 0.001), task -> task,
      QueueLanesTest::queueOf, "n");
  private final HostScheduler<String> scheduler = new HostScheduler<>(frontier,
      Politeness.fixed(1, Duration.ofSeconds(1), Politeness.DEFAULT_MAX_ACTIVE), clock,
      HostScheduler.LeaseObserver.NONE);

  private static String queueOf(String task) {
    String url = task.startsWith("R ") ? task.substring(2) : task;
    String origin = url.substring(0, url.indexOf('/', 8));
    return task.startsWith("R ") ? QueueKeys.lane(origin, "requisites") : origin;
  }

  /** Leases and completes the tasks due now, one politeness delay apart, until none is left; returns their order. */
  private List<String> drain() {
    List<String> order = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      HostScheduler.Lease<String> lease = scheduler.poll();
      if (lease == null) {
        clock.advance(Duration.ofSeconds(1));
        lease = scheduler.poll();
        if (lease == null) {
          return order;
        }
      }
      order.add(lease.task());
      assertEquals(originOf(lease.task()), lease.origin(), "a lane's task is leased under its origin");
      scheduler.complete(lease);
    }
    return order;
  }

  private static String originOf(String task) {
    return QueueKeys.origin(queueOf(task));
  }

  @Test
  void aPagesRequisitesGoAheadOfTheRestOfItsOriginsQueue() {
    scheduler.offer("https://a.example/1");
    scheduler.offer("https://a.example/2");
    scheduler.offer("https://a.example/3");
    HostScheduler.Lease<String> page = scheduler.poll();
    assertEquals("https://a.example/1", page.task());
    scheduler.offerAll(List.of("R https://a.example/style.css", "R https://a.example/logo.png"));
    scheduler.complete(page);
    clock.advance(Duration.ofSeconds(1));
    HostScheduler.Lease<String> css = scheduler.poll();
    assertEquals("R https://a.example/style.css", css.task(), "the page's requisites before page 2");
    assertNull(scheduler.poll(), "at the origin's one pace: the lane is no second origin");
    scheduler.offer("R https://a.example/bg.png"); // the style sheet's own requisite
    scheduler.complete(css);
    assertEquals(List.of("R https://a.example/logo.png", "R https://a.example/bg.png", "https://a.example/2",
        "https://a.example/3"), drain());
    assertTrue(scheduler.isFinished());
  }

  @Test
  void onceOwnQueuesCloseOnlyLanesAreServedAndTheCrawlEndsWhenTheyAreDrained() throws InterruptedException {
    for (String task : List.of("https://a.example/1", "https://a.example/2", "https://b.example/1",
        "https://b.example/2")) {
      scheduler.offer(task);
    }
    HostScheduler.Lease<String> a1 = scheduler.poll();
    HostScheduler.Lease<String> b1 = scheduler.poll();
    assertEquals(List.of("https://a.example/1", "https://b.example/1"), List.of(a1.task(), b1.task()));
    scheduler.closeMainQueues(); // the page limit: no page more, but these two get what they need
    scheduler.offerAll(List.of("R https://a.example/a.css", "R https://cdn.example/lib.js"));
    scheduler.complete(a1);
    assertFalse(scheduler.isFinished(), "a page is out, and requisites wait");
    scheduler.offer("R https://b.example/b.png");
    scheduler.complete(b1);
    List<String> order = drain();
    assertEquals(List.of("R https://a.example/a.css", "R https://b.example/b.png", "R https://cdn.example/lib.js"),
        order.stream().sorted().toList(), "every requisite, and no page");
    assertTrue(scheduler.isFinished(), "the requisites are drained, though pages wait");
    assertNull(scheduler.acquire(1, TimeUnit.SECONDS));
    assertEquals(2, frontier.stats().queued(), "the pages left wait in the frontier for a resumed crawl");
  }
}

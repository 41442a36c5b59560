package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SieveTest {
  private final Sieve<String> sieve = Sieve.forUrls(1000, 0.001);
  /** Queues by host: what a crawl's frontier does with origins. */
  private final Sieve<String> byHost = Sieve.over(BloomFilter.create(1000, 0.001), url -> url,
      url -> url.substring(0, url.indexOf('/', 8)), "n");

  @Test
  void admitsEachUrlOnceAndHandsThemOutInArrivalOrder() {
    assertTrue(sieve.offer("https://a.example/1"));
    assertTrue(sieve.offer("https://a.example/2"));
    assertFalse(sieve.offer("https://a.example/1"), "a duplicate is dropped");
    assertTrue(sieve.offer("https://a.example/3"));

    String queue = sieve.nextQueue();
    assertEquals("https://a.example/1", sieve.poll(queue).task());
    assertEquals("https://a.example/2", sieve.poll(queue).task());
    assertEquals("https://a.example/3", sieve.poll(queue).task());
    assertNull(sieve.poll(queue));
    SieveStats stats = sieve.stats();
    assertEquals(3, stats.admitted());
    assertEquals(1, stats.duplicatesDropped());
    assertEquals(0, stats.queued());
    assertEquals(3, stats.inFlight());
  }

  @Test
  void queuesComeOutOfLineRoundRobinAndEachKeepsItsOrder() {
    for (int i = 0; i < 3; i++) {
      byHost.offer("https://big.example/" + i);
    }
    byHost.offer("https://small.example/0");
    assertEquals("https://big.example", byHost.nextQueue());
    assertEquals("https://big.example/0", byHost.poll("https://big.example").task());
    byHost.releaseQueue("https://big.example"); // tasks wait in it: back to the end of the line
    assertEquals("https://small.example", byHost.nextQueue());
    assertEquals("https://big.example", byHost.nextQueue());
    assertNull(byHost.nextQueue(), "both are checked out");
    assertEquals(3, byHost.stats().queued(), "two of big, one of small");
    assertEquals(2, byHost.stats().queues());
  }

  @Test
  void anOfferToACheckedOutQueueWaitsForItsPollAndAnEmptyReleasedQueueLeavesTheLine() {
    byHost.offer("https://a.example/0");
    String queue = byHost.nextQueue();
    byHost.poll(queue);
    assertNull(byHost.poll(queue));
    byHost.offer("https://a.example/1");
    assertNull(byHost.nextQueue(), "a checked-out queue does not come into line");
    assertEquals("https://a.example/1", byHost.poll(queue).task());
    byHost.releaseQueue(queue);
    assertNull(byHost.nextQueue(), "released empty: out of line");
    byHost.offer("https://a.example/2");
    assertEquals(queue, byHost.nextQueue(), "an offer brings it back");
  }

  @Test
  void aQueueThatIsNotCheckedOutYieldsNothing() {
    byHost.offer("https://a.example/0");
    assertNull(byHost.poll("https://a.example"));
    assertThrows(IllegalStateException.class, () -> byHost.releaseQueue("https://a.example"));
  }

  @Test
  void isFinishedOnlyWhenNothingIsQueuedAndNothingIsInFlight() {
    assertTrue(sieve.isFinished(), "an empty sieve with nothing taken is finished");
    sieve.offer("https://a.example/");
    assertFalse(sieve.isFinished());
    Claim<String> parent = Frontiers.takeOne(sieve);
    assertFalse(sieve.isFinished(), "the taken URL may still yield links");
    sieve.offer("https://a.example/child");
    sieve.complete(parent);
    assertFalse(sieve.isFinished());
    sieve.complete(Frontiers.takeOne(sieve));
    assertTrue(sieve.isFinished());
  }

  @Test
  void stopHandsOutNothingMoreAndKeepsQueuedUrlsCounted() {
    sieve.offer("https://a.example/1");
    String queue = sieve.nextQueue();
    sieve.offer("https://a.example/2");
    sieve.stop();
    assertNull(sieve.poll(queue));
    assertNull(sieve.nextQueue());
    assertTrue(sieve.isFinished());
    assertEquals(2, sieve.stats().queued());
    assertTrue(sieve.offer("https://a.example/3"), "offers are still admitted");
  }

  @Test
  void completingMoreThanWasHandedOutIsAnError() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> sieve.complete(new Claim<>("https://a.example/", 0)));
    assertEquals("more claims completed than handed out", e.getMessage());
  }

  @Test
  void everyTaskComesOutOnceThroughTheLine() {
    for (int i = 0; i < 30; i++) {
      byHost.offer("https://h" + (i % 4) + ".example/" + i);
    }
    Map<String, List<String>> byQueue = Frontiers.drainByQueue(byHost);
    assertEquals(4, byQueue.size());
    assertEquals(List.of("https://h1.example/1", "https://h1.example/5", "https://h1.example/9",
        "https://h1.example/13", "https://h1.example/17", "https://h1.example/21", "https://h1.example/25",
        "https://h1.example/29"), byQueue.get("https://h1.example"));
    assertEquals(30, byQueue.values().stream().mapToInt(List::size).sum());
  }

  @Test
  void nullUrlsAreRefused() {
    assertThrows(NullPointerException.class, () -> sieve.offer(null));
  }
}

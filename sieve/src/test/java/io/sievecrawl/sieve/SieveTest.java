package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SieveTest {
  private final Sieve<String> sieve = Sieve.forUrls(1000, 0.001);

  @Test
  void admitsEachUrlOnceAndHandsThemOutInArrivalOrder() throws InterruptedException {
    assertTrue(sieve.offer("https://a.example/1"));
    assertTrue(sieve.offer("https://a.example/2"));
    assertFalse(sieve.offer("https://a.example/1"), "a duplicate is dropped");
    assertTrue(sieve.offer("https://a.example/3"));

    assertEquals("https://a.example/1", sieve.take(1, TimeUnit.SECONDS).task());
    assertEquals("https://a.example/2", sieve.poll().task());
    assertEquals("https://a.example/3", sieve.take(0, TimeUnit.SECONDS).task());
    SieveStats stats = sieve.stats();
    assertEquals(3, stats.admitted());
    assertEquals(1, stats.duplicatesDropped());
    assertEquals(0, stats.queued());
    assertEquals(3, stats.inFlight());
  }

  @Test
  void isFinishedOnlyWhenNothingIsQueuedAndNothingIsInFlight() throws InterruptedException {
    assertTrue(sieve.isFinished(), "an empty sieve with nothing taken is finished");
    sieve.offer("https://a.example/");
    assertFalse(sieve.isFinished());
    Claim<String> parent = sieve.take(1, TimeUnit.SECONDS);
    assertFalse(sieve.isFinished(), "the taken URL may still yield links");
    sieve.offer("https://a.example/child");
    sieve.complete(parent);
    assertFalse(sieve.isFinished());
    sieve.complete(sieve.take(1, TimeUnit.SECONDS));
    assertTrue(sieve.isFinished());
  }

  @Test
  void takeReturnsNullAtOnceWhenFinished() throws InterruptedException {
    long start = System.nanoTime();
    assertNull(sieve.take(1, TimeUnit.HOURS));
    assertTrue(System.nanoTime() - start < TimeUnit.MINUTES.toNanos(1));
  }

  @Test
  void takeReturnsNullAfterItsTimeoutWhileAnotherUrlIsInFlight() throws InterruptedException {
    sieve.offer("https://a.example/");
    sieve.poll();
    assertNull(sieve.take(10, TimeUnit.MILLISECONDS));
    assertFalse(sieve.isFinished());
  }

  @Test
  void aWaitingTakerGetsAUrlPushedByTheWorkerInFlight() throws Exception {
    sieve.offer("https://a.example/");
    sieve.poll();
    CompletableFuture<Claim<String>> waiting = CompletableFuture.supplyAsync(() -> {
      try {
        return sieve.take(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    sieve.offer("https://a.example/next");
    assertEquals("https://a.example/next", waiting.get(1, TimeUnit.MINUTES).task());
  }

  @Test
  void aWaitingTakerIsReleasedWhenTheLastUrlInFlightIsDone() throws Exception {
    sieve.offer("https://a.example/");
    Claim<String> only = sieve.poll();
    CompletableFuture<Claim<String>> waiting = CompletableFuture.supplyAsync(() -> {
      try {
        return sieve.take(1, TimeUnit.HOURS);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    sieve.complete(only);
    assertNull(waiting.get(1, TimeUnit.MINUTES));
    assertTrue(sieve.isFinished());
  }

  @Test
  void stopReleasesTakersAndKeepsQueuedUrlsCounted() throws InterruptedException {
    sieve.offer("https://a.example/1");
    sieve.offer("https://a.example/2");
    sieve.stop();
    assertNull(sieve.take(1, TimeUnit.HOURS));
    assertNull(sieve.poll());
    assertTrue(sieve.isFinished());
    assertEquals(2, sieve.stats().queued());
  }

  @Test
  void aRequeuedTaskGoesToTheTailWithoutPassingTheFilterAgain() {
    sieve.offer("https://a.example/1");
    sieve.offer("https://a.example/2");
    Claim<String> first = sieve.poll();
    long id = sieve.requeue(first);
    assertEquals("https://a.example/2", sieve.poll().task());
    Claim<String> again = sieve.poll();
    assertEquals(new Claim<>("https://a.example/1", id), again);
    assertEquals(2, sieve.stats().admitted(), "a requeue is not an admission");
    assertEquals(0, sieve.stats().duplicatesDropped());
  }

  @Test
  void completingMoreThanWasHandedOutIsAnError() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> sieve.complete(new Claim<>("https://a.example/", 0)));
    assertEquals("more claims completed or requeued than handed out", e.getMessage());
  }

  @Test
  void nullUrlsAreRefused() {
    assertThrows(NullPointerException.class, () -> sieve.offer(null));
  }
}

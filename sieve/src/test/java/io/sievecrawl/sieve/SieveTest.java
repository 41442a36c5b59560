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
    assertTrue(sieve.push("https://a.example/1"));
    assertTrue(sieve.push("https://a.example/2"));
    assertFalse(sieve.push("https://a.example/1"), "a duplicate is dropped");
    assertTrue(sieve.push("https://a.example/3"));

    assertEquals("https://a.example/1", sieve.take(1, TimeUnit.SECONDS));
    assertEquals("https://a.example/2", sieve.poll());
    assertEquals("https://a.example/3", sieve.take(0, TimeUnit.SECONDS));
    SieveStats stats = sieve.stats();
    assertEquals(3, stats.admitted());
    assertEquals(1, stats.duplicatesDropped());
    assertEquals(0, stats.queued());
    assertEquals(3, stats.inFlight());
  }

  @Test
  void isFinishedOnlyWhenNothingIsQueuedAndNothingIsInFlight() throws InterruptedException {
    assertTrue(sieve.isFinished(), "an empty sieve with nothing taken is finished");
    sieve.push("https://a.example/");
    assertFalse(sieve.isFinished());
    sieve.take(1, TimeUnit.SECONDS);
    assertFalse(sieve.isFinished(), "the taken URL may still yield links");
    sieve.push("https://a.example/child");
    sieve.done();
    assertFalse(sieve.isFinished());
    sieve.take(1, TimeUnit.SECONDS);
    sieve.done();
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
    sieve.push("https://a.example/");
    sieve.poll();
    assertNull(sieve.take(10, TimeUnit.MILLISECONDS));
    assertFalse(sieve.isFinished());
  }

  @Test
  void aWaitingTakerGetsAUrlPushedByTheWorkerInFlight() throws Exception {
    sieve.push("https://a.example/");
    sieve.poll();
    CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> {
      try {
        return sieve.take(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    sieve.push("https://a.example/next");
    assertEquals("https://a.example/next", waiting.get(1, TimeUnit.MINUTES));
  }

  @Test
  void aWaitingTakerIsReleasedWhenTheLastUrlInFlightIsDone() throws Exception {
    sieve.push("https://a.example/");
    sieve.poll();
    CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> {
      try {
        return sieve.take(1, TimeUnit.HOURS);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    sieve.done();
    assertNull(waiting.get(1, TimeUnit.MINUTES));
    assertTrue(sieve.isFinished());
  }

  @Test
  void stopReleasesTakersAndLeavesQueuedUrlsToDrain() throws InterruptedException {
    sieve.push("https://a.example/1");
    sieve.push("https://a.example/2");
    sieve.stop();
    assertNull(sieve.take(1, TimeUnit.HOURS));
    assertNull(sieve.poll());
    assertTrue(sieve.isFinished());
    assertEquals(List.of("https://a.example/1", "https://a.example/2"), sieve.drain());
    assertEquals(0, sieve.stats().queued());
  }

  @Test
  void doneWithoutATakeIsAnError() {
    IllegalStateException e = assertThrows(IllegalStateException.class, sieve::done);
    assertEquals("done() called more often than URLs were taken", e.getMessage());
  }

  @Test
  void nullUrlsAreRefused() {
    assertThrows(NullPointerException.class, () -> sieve.push(null));
  }
}

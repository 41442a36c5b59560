package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LinePausesTest {
  private static final long FIRST = LinePauses.FIRST_PAUSE_NANOS;
  private static final long LONGEST = LinePauses.LONGEST_PAUSE_NANOS;

  private final LinePauses pauses = new LinePauses();

  /** Asks the group at {@code now}, which must be allowed, and answers empty. */
  private void emptyAt(long now) {
    long ticket = pauses.ask(7, now);
    assertTrue(ticket >= 0, "asked at " + now);
    pauses.empty(7, ticket, now);
  }

  @Test
  void aLineFoundEmptyIsPausedTwiceAsLongEachTimeUpToTheLongest() {
    long now = 0;
    List<Long> lengths = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      emptyAt(now);
      long length = 0;
      while (pauses.paused(7, now + length)) {
        assertTrue(pauses.ask(7, now + length) < 0, "not asked while paused");
        length += FIRST / 4;
      }
      lengths.add(length);
      now += length;
    }
    assertEquals(List.of(FIRST, 2 * FIRST, 4 * FIRST, 8 * FIRST, LONGEST, LONGEST, LONGEST, LONGEST), lengths);
  }

  @Test
  void anOriginThatMayHaveComeIntoLineEndsThePauseAtOnce() {
    emptyAt(0);
    emptyAt(FIRST);
    assertTrue(pauses.paused(7, FIRST + 1));
    pauses.mayHold(7);
    assertFalse(pauses.paused(7, FIRST + 1));
    long ticket = pauses.ask(7, FIRST + 1);
    assertTrue(ticket >= 0);
    pauses.empty(7, ticket, FIRST + 1);
    assertTrue(pauses.paused(7, FIRST + 2), "the first pause again, not the third");
    assertFalse(pauses.paused(7, 2 * FIRST + 1));
    assertTrue(pauses.paused(9, 0) == false && pauses.ask(9, 0) >= 0, "another group is not paused");
  }

  @Test
  void anEmptyAnswerReadBeforeAnOriginCameIntoLinePausesNothing() {
    long ticket = pauses.ask(7, 0);
    pauses.mayHold(7); // lined up while the ask was on its way
    pauses.empty(7, ticket, 0);
    assertFalse(pauses.paused(7, 1));
    assertTrue(pauses.ask(7, 1) >= 0, "asked again at once");
  }

  @Test
  void workersAskALineThatYieldedOriginsSideBySideAndAnEmptyOneAlone() {
    long alone = pauses.ask(7, 0);
    assertTrue(alone >= 0);
    assertTrue(pauses.ask(7, 0) < 0, "one worker asks a line never answered yet");
    pauses.found(7);
    pauses.mayHold(7); // an origin released: the line still yields
    long first = pauses.ask(7, 0);
    long second = pauses.ask(7, 0);
    assertTrue(first >= 0 && second >= 0, "side by side");
    pauses.empty(7, first, 0);
    pauses.empty(7, second, 0);
    assertFalse(pauses.paused(7, FIRST), "paused for the first pause only");
  }

  @Test
  void afterAPauseOneWorkerOfManyAsksAgain() throws Exception {
    int threads = 16;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 200; round++) {
        LinePauses racing = new LinePauses();
        racing.empty(3, racing.ask(3, 0), 0);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Long>> tickets = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          tickets.add(pool.submit(() -> {
            go.await();
            return racing.ask(3, FIRST);
          }));
        }
        go.countDown();
        int asking = 0;
        for (Future<Long> ticket : tickets) {
          asking += ticket.get(1, TimeUnit.MINUTES) >= 0 ? 1 : 0;
        }
        assertEquals(1, asking, "workers asking after the pause, round " + round);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}

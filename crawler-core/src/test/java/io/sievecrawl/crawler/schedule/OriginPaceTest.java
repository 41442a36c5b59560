package io.sievecrawl.crawler.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class OriginPaceTest {
  private static final long MS = 1_000_000L;
  private final Politeness adaptive = new Politeness(1, Duration.ofSeconds(1), true, 5, Duration.ofSeconds(30),
      1_000);

  @Test
  void theDelayIsAMultipleOfTheResponseTimeBetweenTheFloorAndTheCeiling() {
    OriginPace pace = new OriginPace(adaptive);
    assertEquals(1_000 * MS, pace.effectiveDelay(), "the floor before any response");
    pace.responded(400 * MS, 200);
    assertEquals(2_000 * MS, pace.effectiveDelay(), "5 x 400 ms");
    pace.responded(10 * MS, 200);
    assertEquals(1_000 * MS, pace.effectiveDelay(), "never below the floor");
    pace.responded(20_000 * MS, 200);
    assertEquals(30_000 * MS, pace.effectiveDelay(), "never above the ceiling");
  }

  @Test
  void a429Or503DoublesTheDelayAndSuccessesEaseItBack() {
    OriginPace pace = new OriginPace(adaptive);
    pace.responded(200 * MS, 503);
    assertEquals(2_000 * MS, pace.effectiveDelay());
    pace.responded(200 * MS, 429);
    assertEquals(4_000 * MS, pace.effectiveDelay());
    pace.responded(200 * MS, 200);
    assertEquals(2_000 * MS, pace.effectiveDelay());
    pace.responded(200 * MS, 200);
    assertEquals(1_000 * MS, pace.effectiveDelay());
  }

  @Test
  void aCrawlDelayWinsAndAPauseHoldsTheNextStart() {
    OriginPace pace = new OriginPace(adaptive);
    pace.crawlDelay(10_000 * MS);
    assertEquals(10_000 * MS, pace.effectiveDelay());
    pace.started(0);
    assertEquals(10_000 * MS, pace.nextStart(0));
    pace.pauseUntil(60_000 * MS);
    assertEquals(60_000 * MS, pace.nextStart(0));
    pace.resume(5_000 * MS);
    assertEquals(10_000 * MS, pace.nextStart(5_000 * MS), "resumed: back to the delay");
  }

  @Test
  void aFixedDelayDoesNotAdapt() {
    OriginPace pace = new OriginPace(Politeness.fixed(1, Duration.ofMillis(250), 1_000));
    pace.responded(5_000 * MS, 200);
    assertEquals(250 * MS, pace.effectiveDelay());
  }
}

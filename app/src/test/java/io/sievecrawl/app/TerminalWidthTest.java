package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TerminalWidthTest {
  private final AtomicInteger terminal = new AtomicInteger(80);
  private final AtomicInteger probes = new AtomicInteger();
  private final AtomicInteger resizes = new AtomicInteger();
  private final FakeClock clock = new FakeClock();

  private TerminalWidth width(long maxAgeNanos) {
    return new TerminalWidth(() -> {
      probes.incrementAndGet();
      return terminal.get();
    }, resizes::get, maxAgeNanos, clock);
  }

  @Test
  void aResizeIsFollowedAtTheNextRedrawWithoutAskingTheTerminalEachTime() {
    TerminalWidth width = width(Long.MAX_VALUE);
    assertEquals(80, width.columns());
    clock.advance(Duration.ofHours(1));
    assertEquals(80, width.columns());
    assertEquals(1, probes.get());

    terminal.set(60);
    resizes.incrementAndGet();
    assertEquals(60, width.columns());
    assertEquals(60, width.columns());
    assertEquals(2, probes.get());
  }

  @Test
  void withoutTheResizeSignalTheWidthIsAskedAgainOnlyOnceItIsOld() {
    TerminalWidth width = width(TimeUnit.SECONDS.toNanos(TerminalWidth.UNSIGNALLED_MAX_AGE_SECONDS));
    assertEquals(80, width.columns());
    terminal.set(120);
    clock.advance(Duration.ofSeconds(1));
    assertEquals(80, width.columns());
    clock.advance(Duration.ofSeconds(TerminalWidth.UNSIGNALLED_MAX_AGE_SECONDS));
    assertEquals(120, width.columns());
    assertEquals(2, probes.get());
  }

  @Test
  void aTinyWidthCountsAsTwentyColumns() {
    terminal.set(5);
    assertEquals(20, width(Long.MAX_VALUE).columns());
  }

  @Test
  void aTerminalThatCannotTellIsTakenAsEightyColumnsWithoutColumnsSet() {
    assumeTrue(System.getenv("COLUMNS") == null);
    terminal.set(0);
    assertEquals(80, width(Long.MAX_VALUE).columns());
  }
}

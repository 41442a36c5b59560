package io.sievecrawl.crawler.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IsoInstantTest {
  private static final long YEAR_0 = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
  private static final long YEAR_10000 = Instant.parse("+10000-01-01T00:00:00Z").getEpochSecond();

  @Test
  void writesWhatIsoInstantWritesOverRandomInstants() {
    SplittableRandom random = new SplittableRandom(38);
    for (int i = 0; i < 2_000_000; i++) {
      long seconds = switch (i % 4) {
        case 0 -> random.nextLong(YEAR_0, YEAR_10000); // any year ISO_INSTANT writes with four digits
        case 1 -> random.nextLong(0, 4_102_444_800L); // 1970 to 2100, where a crawl's clock is
        case 2 -> random.nextLong(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond() + 1); // signed years
        default -> random.nextLong(YEAR_0 - 86_400 * 3, YEAR_0 + 86_400 * 3); // around the fast path's edges
      };
      int nano = switch (random.nextInt(4)) {
        case 0 -> 0;
        case 1 -> random.nextInt(1000) * 1_000_000;
        case 2 -> random.nextInt(1_000_000) * 1000;
        default -> random.nextInt(1_000_000_000);
      };
      assertSame(Instant.ofEpochSecond(seconds, nano));
    }
  }

  @Test
  void writesEveryDayOfTheFastPathsRangeAndItsEdges() {
    for (long second = YEAR_0 - 86_400; second < YEAR_10000 + 86_400; second += 86_399) { // each day, moving hour
      assertSame(Instant.ofEpochSecond(second));
    }
    for (String text : new String[] {"0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "1970-01-01T00:00:00Z",
        "1969-12-31T23:59:59.999Z", "2000-02-29T12:00:00.000001Z", "1900-03-01T00:00:00Z", "2026-11-28T17:30:00.120Z",
        "-0001-12-31T23:59:59Z", "+10000-01-01T00:00:00Z"}) {
      assertSame(Instant.parse(text));
    }
    assertEquals("2026-11-28T17:30:00.120Z", IsoInstant.format(Instant.parse("2026-11-28T17:30:00.12Z")));
    assertSame(Instant.MIN);
    assertSame(Instant.MAX);
    assertSame(Instant.EPOCH);
  }

  private static void assertSame(Instant instant) {
    assertEquals(DateTimeFormatter.ISO_INSTANT.format(instant), IsoInstant.format(instant),
        () -> "epoch second " + instant.getEpochSecond() + ", nano " + instant.getNano());
  }
}

package io.sievecrawl.crawler.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sievecrawl.crawler.robots.RobotsStore;
import io.sievecrawl.sieve.testing.FakeClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The robots.txt rules a crawl directory keeps: read back at a resume until they expire, within a memory bound. */
class RobotsFileTest {
  private final FakeClock clock = new FakeClock();
  @TempDir
  Path dir;

  private RobotsStore.Kept rules(String text, Duration lifetime) {
    return new RobotsStore.Kept(clock.instant().plus(lifetime), text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void rulesSavedAreReadBackOnceAfterAReopenTheLatestOfEachOrigin() throws Exception {
    try (RobotsFile file = RobotsFile.open(dir, clock, 1_000_000)) {
      file.save("http://a", rules("a1", Duration.ofHours(24)));
      file.save("http://b", rules("b1", Duration.ofHours(24)));
      file.save("http://a", rules("a2", Duration.ofHours(24)));
    }
    try (RobotsFile file = RobotsFile.open(dir, clock, 1_000_000)) {
      assertArrayEquals("a2".getBytes(StandardCharsets.UTF_8), file.load("http://a").rules());
      assertNull(file.load("http://a"), "handed to the crawl once: its cache holds them from then on");
      assertArrayEquals("b1".getBytes(StandardCharsets.UTF_8), file.load("http://b").rules());
      assertNull(file.load("http://c"));
    }
  }

  @Test
  void expiredRulesAreDroppedAndTheFileWrittenAgainWithoutThem() throws Exception {
    try (RobotsFile file = RobotsFile.open(dir, clock, 1_000_000)) {
      file.save("http://old", rules("old", Duration.ofHours(1)));
      file.save("http://new", rules("new", Duration.ofHours(24)));
    }
    clock.advance(Duration.ofHours(2));
    try (RobotsFile file = RobotsFile.open(dir, clock, 1_000_000)) {
      assertNull(file.load("http://old"));
      assertEquals(1, Files.readAllLines(dir.resolve(RobotsFile.NAME)).size(), "only the unexpired line kept");
    }
  }

  @Test
  void aLineCutShortByAKillOrDamagedIsSkipped() throws Exception {
    try (RobotsFile file = RobotsFile.open(dir, clock, 1_000_000)) {
      file.save("http://a", rules("a", Duration.ofHours(24)));
      file.save("http://b", rules("b", Duration.ofHours(24)));
    }
    Path log = dir.resolve(RobotsFile.NAME);
    String text = Files.readString(log);
    Files.writeString(log, text.replace("http://a\t", "http://z\t")); // damaged: its CRC no longer matches
    Files.writeString(log, "http://c\t12", StandardOpenOption.APPEND); // cut short
    try (RobotsFile file = RobotsFile.open(dir, clock, 1_000_000)) {
      assertNull(file.load("http://a"));
      assertNull(file.load("http://z"));
      assertNull(file.load("http://c"));
      assertArrayEquals("b".getBytes(StandardCharsets.UTF_8), file.load("http://b").rules());
    }
  }

  @Test
  void theMostRecentlyFetchedOriginsAreKeptWithinTheMemoryBound() throws Exception {
    try (RobotsFile file = RobotsFile.open(dir, clock, 1_000_000)) {
      for (int i = 0; i < 10; i++) {
        file.save("http://o" + i, rules("x".repeat(100), Duration.ofHours(24)));
      }
    }
    try (RobotsFile file = RobotsFile.open(dir, clock, 350)) {
      for (int i = 0; i < 7; i++) {
        assertNull(file.load("http://o" + i), "o" + i);
      }
      for (int i = 7; i < 10; i++) {
        assertEquals(100, file.load("http://o" + i).rules().length, "o" + i);
      }
    }
    assertEquals(3, Files.readAllLines(dir.resolve(RobotsFile.NAME)).size());
  }
}

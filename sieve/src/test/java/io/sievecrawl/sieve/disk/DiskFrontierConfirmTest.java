package io.sievecrawl.sieve.disk;

import static io.sievecrawl.sieve.disk.Strings.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A disk frontier whose filter an exact store confirms: nothing lost past n, across checkpoints and reopens. */
class DiskFrontierConfirmTest {
  @TempDir Path dir;

  private DiskFrontier<String> open(long n) throws IOException {
    return DiskFrontier.open(dir, n, 0.01, Strings.CODEC, s -> s, s -> "",
        Strings.quietOptions(1 << 20).withConfirmation(true), Ticker.SYSTEM);
  }

  @Test
  void farPastCapacityEveryUrlIsAdmittedOnceAcrossCheckpointsAndReopens() throws IOException {
    try (DiskFrontier<String> frontier = open(100)) {
      for (int i = 0; i < 5_000; i++) {
        assertTrue(frontier.offer(url(i)), "URL " + i);
        if (i % 700 == 699) {
          frontier.checkpoint(); // runs of 700, merged as they come
        }
      }
      assertTrue(frontier.stats().rescued() > 4_000, "rescued " + frontier.stats().rescued());
      assertTrue(runFiles().size() <= 4, "runs merged: " + runFiles());
    }
    try (DiskFrontier<String> frontier = open(100)) {
      for (int i = 0; i < 5_000; i++) {
        assertFalse(frontier.offer(url(i)), "URL " + i + " admitted twice");
      }
      for (int i = 5_000; i < 6_000; i++) {
        assertTrue(frontier.offer(url(i)), "URL " + i);
      }
      assertEquals(6_000, frontier.stats().admitted());
    }
  }

  @Test
  void aLargerNRebuildsTheFilterFromTheStoreWithoutForgettingAnything() throws IOException {
    long rescuedBefore;
    try (DiskFrontier<String> frontier = open(100)) {
      for (int i = 0; i < 3_000; i++) {
        frontier.offer(url(i));
        if (i == 1_500) {
          frontier.checkpoint();
        }
      }
      rescuedBefore = frontier.stats().rescued();
    } // the second half only in the log
    try (DiskFrontier<String> frontier = open(100_000)) {
      assertEquals(100_000, frontier.filter().expectedInsertions());
      for (int i = 0; i < 3_000; i++) {
        assertTrue(frontier.filter().mightContain(url(i)), "the rebuilt filter holds URL " + i);
        assertFalse(frontier.offer(url(i)));
      }
      for (int i = 3_000; i < 4_000; i++) {
        assertTrue(frontier.offer(url(i)));
      }
      assertTrue(frontier.stats().rescued() - rescuedBefore < 10, "few rescues at the new n");
      assertTrue(frontier.stats().currentFpp() < 0.01);
    }
    try (DiskFrontier<String> frontier = open(100_000)) { // the new n was checkpointed
      assertEquals(4_000, frontier.stats().admitted());
    }
  }

  @Test
  void pastCapacityTheFilterGrowsByItselfAndTellsItsOwner() throws Exception {
    CompletableFuture<long[]> resized = new CompletableFuture<>();
    try (DiskFrontier<String> frontier = DiskFrontier.open(dir, 100, 0.01, Strings.CODEC, s -> s, s -> "",
        Strings.quietOptions(1 << 20).withConfirmation(true)
            .withGrowth(true, (n, p) -> resized.complete(new long[] {n})), Ticker.SYSTEM)) {
      for (int i = 0; i < 150; i++) {
        assertTrue(frontier.offer(url(i)));
      }
      long newN = resized.get(60, TimeUnit.SECONDS)[0];
      assertTrue(newN >= 200, "grew to " + newN);
      assertEquals(newN, frontier.filter().expectedInsertions());
      for (int i = 0; i < 150; i++) {
        assertFalse(frontier.offer(url(i)), "URL " + i + " still seen");
      }
    }
    try (DiskFrontier<String> frontier = DiskFrontier.open(dir, resized.get()[0], 0.01, Strings.CODEC, s -> s,
        s -> "", Strings.quietOptions(1 << 20).withConfirmation(true), Ticker.SYSTEM)) {
      assertEquals(resized.get()[0], frontier.filter().expectedInsertions(), "checkpointed at the new n");
      assertEquals(150, frontier.stats().admitted());
    }
  }

  @Test
  void offersRacingAGrowthAdmitEveryUrlOnce() throws Exception {
    int urls = 20_000;
    AtomicIntegerArray admitted = new AtomicIntegerArray(urls);
    try (DiskFrontier<String> frontier = open(500)) {
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        threads.add(Thread.ofPlatform().start(() -> {
          for (int i = 0; i < urls; i++) {
            if (frontier.offer(url(i))) {
              admitted.incrementAndGet(i);
            }
          }
        }));
      }
      for (long n = 1_000; n <= 64_000; n *= 2) {
        frontier.grow(n); // while the offers go on
      }
      for (Thread t : threads) {
        t.join();
      }
      for (int i = 0; i < urls; i++) {
        assertEquals(1, admitted.get(i), "URL " + i + " admitted once");
        assertTrue(frontier.filter().mightContain(url(i)), "the last filter holds URL " + i);
      }
      assertEquals(64_000, frontier.filter().expectedInsertions());
    }
  }

  @Test
  void aKillBeforeTheResizedCheckpointIsWrittenLeavesTheOldOneWhole() throws IOException {
    try (DiskFrontier<String> frontier = open(100)) {
      for (int i = 0; i < 500; i++) {
        frontier.offer(url(i));
      }
      frontier.checkpoint(); // as the end of a run does: the resize below checkpoints at the same log position
    }
    byte[] oldCheckpoint = Files.readAllBytes(dir.resolve(CheckpointFile.NAME));
    Path oldFilter = filterFiles().get(0);
    byte[] oldFilterBytes = Files.readAllBytes(oldFilter);
    open(10_000).close();
    assertFalse(filterFiles().contains(oldFilter), "the resized filter has a file of its own");
    // What a kill between writing the new filter file and the new checkpoint leaves: both filters, the old checkpoint.
    Files.write(oldFilter, oldFilterBytes);
    Files.write(dir.resolve(CheckpointFile.NAME), oldCheckpoint);
    try (DiskFrontier<String> frontier = open(10_000)) { // rebuilt again, from the old filter's checkpoint
      assertEquals(500, frontier.stats().admitted());
      assertFalse(frontier.offer(url(7)));
    }
  }

  @Test
  void aFrontierWithoutAStoreCannotChangeN() throws IOException {
    Strings.open(dir, 1 << 20).close();
    FrontierCorruptException e = assertThrows(FrontierCorruptException.class, () -> open(200_000));
    assertTrue(e.getMessage().contains("only a frontier with an exact store can rebuild its filter"), e.getMessage());
  }

  @Test
  void aRunNoCheckpointNamesIsDeletedAndANamedOneMissingIsRefused() throws IOException {
    try (DiskFrontier<String> frontier = open(100)) {
      for (int i = 0; i < 500; i++) {
        frontier.offer(url(i));
      }
      frontier.checkpoint();
    }
    List<Path> runs = runFiles();
    assertEquals(1, runs.size());
    Path leftover = dir.resolve("seen-000000000099.run");
    Files.copy(runs.get(0), leftover);
    open(100).close();
    assertFalse(Files.exists(leftover));
    Files.delete(runs.get(0));
    FrontierCorruptException e = assertThrows(FrontierCorruptException.class, () -> open(100));
    assertEquals(runs.get(0) + ": named by the checkpoint but missing", e.getMessage());
  }

  @Test
  void aRunReplacedByAnotherValidRunIsRefused() throws IOException {
    Path backup = dir.resolveSibling(dir.getFileName() + "-backup.run");
    try (DiskFrontier<String> frontier = open(100)) {
      for (int i = 0; i < 300; i++) {
        frontier.offer(url(i));
      }
      frontier.checkpoint();
      Files.copy(runFiles().get(0), backup); // an older backup of the one run
      for (int i = 300; i < 600; i++) {
        frontier.offer(url(i));
      }
      frontier.checkpoint(); // its run of 300 merged with the first into one of 600
    }
    List<Path> runs = runFiles();
    assertEquals(1, runs.size());
    Files.copy(backup, runs.get(0), java.nio.file.StandardCopyOption.REPLACE_EXISTING); // restored from it
    FrontierCorruptException e = assertThrows(FrontierCorruptException.class, () -> open(100));
    assertTrue(e.getMessage().startsWith(runs.get(0) + ": holds 300 URL fingerprints (CRC-32C "), e.getMessage());
    assertTrue(e.getMessage().contains("but the checkpoint recorded 600 (CRC-32C "), e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }

  @Test
  void aCheckpointOfVersion2WithRunsNamedAloneIsReadAndWrittenAgainAsVersion3() throws IOException {
    try (DiskFrontier<String> frontier = open(100)) {
      for (int i = 0; i < 300; i++) {
        frontier.offer(url(i));
      }
      frontier.checkpoint();
      for (int i = 300; i < 400; i++) {
        frontier.offer(url(i)); // in the log after the checkpoint
      }
    }
    String v3 = Files.readString(dir.resolve(CheckpointFile.NAME));
    assertTrue(v3.contains("version=3\n"), v3);
    assertTrue(v3.matches("(?s).*\nseen=seen-\\d{12}\\.run:300:[0-9a-f]{8}\n.*"), v3);
    writeVersion2(v3);
    try (DiskFrontier<String> frontier = open(100)) {
      assertEquals(400, frontier.stats().admitted());
      for (int i = 0; i < 400; i++) {
        assertFalse(frontier.offer(url(i)), "URL " + i + " admitted twice");
      }
      assertTrue(frontier.offer(url(400)));
      frontier.checkpoint();
    }
    assertTrue(Files.readString(dir.resolve(CheckpointFile.NAME)).contains("version=3\n"));
    try (DiskFrontier<String> frontier = open(100)) {
      assertEquals(401, frontier.stats().admitted());
    }
  }

  /**
   * Rewrites the checkpoint as the build before wrote it: version 2, runs named without count and checksum, the same
   * CRC-32C line.
   */
  private void writeVersion2(String v3) throws IOException {
    StringBuilder body = new StringBuilder();
    for (String line : v3.split("\n")) {
      if (line.startsWith("crc32c=")) {
        continue;
      }
      if (line.startsWith("version=")) {
        line = "version=2";
      } else if (line.startsWith("seen=")) {
        line = line.replaceAll(":[0-9]+:[0-9a-f]{8}", "");
      }
      body.append(line).append('\n');
    }
    byte[] bytes = body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    body.append(String.format("crc32c=%08x%n", LogFormat.crcOf(bytes, 0, bytes.length)));
    assertTrue(body.toString().contains("\nseen=seen-"), body.toString());
    Files.writeString(dir.resolve(CheckpointFile.NAME), body);
  }

  @Test
  void aRebuiltFilterLogsTheExactCountOfTheStoreNotAnEstimate() throws IOException {
    try (DiskFrontier<String> frontier = open(100)) {
      for (int i = 0; i < 927; i++) {
        frontier.offer(url(i));
      }
    }
    ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
        LogRecovery.class);
    var appender = new ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent>();
    appender.start();
    logger.addAppender(appender);
    ch.qos.logback.classic.Level level = logger.getLevel();
    logger.setLevel(ch.qos.logback.classic.Level.INFO);
    try (DiskFrontier<String> frontier = open(1_000)) {
      long estimate = frontier.filter().approximateElementCount();
      assertTrue(estimate != 927, "the estimate differs from the count here: " + estimate);
      String rebuilt = appender.list.stream().map(e -> e.getFormattedMessage())
          .filter(m -> m.contains("rebuilt the URL filter")).findFirst().orElseThrow();
      assertTrue(rebuilt.contains("): 927 URLs in "), rebuilt);
    } finally {
      logger.setLevel(level);
      logger.detachAppender(appender);
    }
  }

  private List<Path> filterFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".bf")).sorted().toList();
    }
  }

  private List<Path> runFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".run")).sorted().toList();
    }
  }
}

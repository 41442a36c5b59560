package io.sievecrawl.sieve.disk;

import static io.sievecrawl.sieve.Frontiers.drain;
import static io.sievecrawl.sieve.Frontiers.takeOne;
import static io.sievecrawl.sieve.disk.Strings.open;
import static io.sievecrawl.sieve.disk.Strings.openByHost;
import static io.sievecrawl.sieve.disk.Strings.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontiers;
import io.sievecrawl.sieve.SieveStats;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskFrontierTest {
  @TempDir
  Path dir;

  @Test
  void admitsEachUrlOnceAndHandsTasksOutInArrivalOrder() throws IOException {
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      assertTrue(frontier.offer("https://a.example/1"));
      assertTrue(frontier.offer("https://a.example/2"));
      assertFalse(frontier.offer("https://a.example/1"), "a duplicate is dropped");
      String queue = frontier.nextQueue();
      assertEquals("https://a.example/1", frontier.poll(queue).task());
      assertTrue(frontier.offer("https://a.example/3"));
      assertEquals("https://a.example/2", frontier.poll(queue).task());
      assertEquals("https://a.example/3", frontier.poll(queue).task());
      assertNull(frontier.poll(queue));
      SieveStats stats = frontier.stats();
      assertEquals(3, stats.admitted());
      assertEquals(1, stats.duplicatesDropped());
      assertEquals(0, stats.queued());
      assertEquals(3, stats.inFlight());
      assertFalse(frontier.isFinished(), "three tasks are in flight");
    }
  }

  @Test
  void isFinishedWhenEveryTaskIsCompleted() throws IOException {
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      assertTrue(frontier.isFinished());
      frontier.offer("https://a.example/");
      Claim<String> parent = takeOne(frontier);
      frontier.offer("https://a.example/child");
      frontier.complete(parent);
      assertFalse(frontier.isFinished());
      frontier.complete(takeOne(frontier));
      assertTrue(frontier.isFinished());
    }
  }

  @Test
  void aReopenedFrontierHandsOutWhatWasNotCompletedAndRemembersEveryUrl() throws IOException {
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      for (int i = 0; i < 10; i++) {
        frontier.offer(url(i));
      }
      for (int i = 0; i < 6; i++) {
        Claim<String> claim = takeOne(frontier);
        if (i % 2 == 0) {
          frontier.complete(claim); // 0, 2, 4 done; 1, 3, 5 in flight when the run ends
        }
      }
    }
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      assertEquals(List.of(url(1), url(3), url(5), url(6), url(7), url(8), url(9)), drain(frontier));
      for (int i = 0; i < 10; i++) {
        assertFalse(frontier.offer(url(i)), "the filter still knows " + url(i));
      }
      assertEquals(10, frontier.stats().admitted());
    }
  }

  @Test
  void eachQueueHandsOutItsTasksInOrderAndQueuesTakeTurns() throws IOException {
    try (DiskFrontier<String> frontier = openByHost(dir, 4096)) {
      for (int i = 0; i < 70; i++) {
        frontier.offer(url(i)); // seven hosts, interleaved
      }
      assertEquals(7, frontier.stats().queues());
      String first = frontier.nextQueue();
      assertEquals("https://host0.example", first);
      assertEquals(url(0), frontier.poll(first).task());
      assertEquals(url(7), frontier.poll(first).task(), "the next task of its queue, not of the log");
      frontier.releaseQueue(first);
      assertEquals("https://host1.example", frontier.nextQueue(), "the next queue in line");
      Map<String, List<String>> rest = Frontiers.drainByQueue(frontier);
      assertEquals(List.of("https://host2.example", "https://host3.example", "https://host4.example",
          "https://host5.example", "https://host6.example", "https://host0.example"), List.copyOf(rest.keySet()));
      for (Map.Entry<String, List<String>> queue : rest.entrySet()) {
        List<String> tasks = queue.getValue();
        int host = queue.getKey().charAt(12) - '0';
        int from = host == 0 ? 14 : host;
        for (int i = 0; i < tasks.size(); i++) {
          assertEquals(url(from + 7 * i), tasks.get(i), queue.getKey());
        }
      }
    }
  }

  @Test
  void queuesKeepTheirOrderAndTheirTasksInFlightAcrossAReopen() throws IOException {
    List<String> done = new ArrayList<>();
    try (DiskFrontier<String> frontier = openByHost(dir, 4096)) {
      for (int i = 0; i < 700; i++) {
        frontier.offer(url(i));
      }
      for (int round = 0; round < 20; round++) {
        String queue = frontier.nextQueue();
        Claim<String> a = frontier.poll(queue);
        Claim<String> b = frontier.poll(queue);
        Claim<String> c = frontier.poll(queue);
        frontier.complete(b); // out of order: a stays in flight, c in flight
        done.add(b.task());
        if (round % 2 == 0) {
          frontier.complete(c);
          done.add(c.task());
        }
        frontier.releaseQueue(queue);
      }
      frontier.checkpoint();
    }
    try (DiskFrontier<String> frontier = openByHost(dir, 4096)) {
      Map<String, List<String>> byQueue = Frontiers.drainByQueue(frontier);
      int total = 0;
      for (Map.Entry<String, List<String>> queue : byQueue.entrySet()) {
        List<Integer> indexes = queue.getValue().stream().map(DiskFrontierTest::indexOf).toList();
        assertEquals(indexes.stream().sorted().toList(), indexes, queue.getKey() + " in admission order");
        for (String url : queue.getValue()) {
          assertEquals(queue.getKey(), Strings.host(url));
          assertFalse(done.contains(url), url + " was completed");
        }
        total += indexes.size();
      }
      assertEquals(700 - done.size(), total, "everything not completed, once");
    }
  }

  @Test
  void aQueueGrownWhileCheckedOutAndEmptyResumesAtItsNewTask() throws IOException {
    try (DiskFrontier<String> frontier = openByHost(dir, 1 << 20)) {
      frontier.offer("https://a.example/0");
      String queue = frontier.nextQueue();
      frontier.complete(frontier.poll(queue)); // spent: its next task starts a new chain
      frontier.offer("https://a.example/1");
      frontier.offer("https://a.example/2");
      assertEquals("https://a.example/1", frontier.poll(queue).task());
    }
    try (DiskFrontier<String> frontier = openByHost(dir, 1 << 20)) {
      assertEquals(List.of("https://a.example/1", "https://a.example/2"), drain(frontier));
    }
  }

  @Test
  void fullSegmentsAreDeletedOnceDoneAndCheckpointed() throws IOException {
    try (DiskFrontier<String> frontier = open(dir, 4096)) {
      for (int i = 0; i < 2_000; i++) {
        frontier.offer(url(i));
      }
      long written = segmentCount();
      assertTrue(written > 20, "many small segments: " + written);
      for (int i = 0; i < 1_990; i++) {
        frontier.complete(takeOne(frontier));
      }
      long withAcks = segmentCount();
      frontier.checkpoint();
      // What stays: the segment holding the ten waiting tasks, and those after it (the acknowledgements).
      assertEquals(withAcks - written + 1, segmentCount());
    }
    try (DiskFrontier<String> frontier = open(dir, 4096)) {
      List<String> rest = drain(frontier);
      assertEquals(10, rest.size());
      assertEquals(url(1_990), rest.get(0));
      for (int i = 0; i < 2_000; i++) {
        assertFalse(frontier.offer(url(i)), "checkpoint plus replay knows " + i);
      }
    }
  }

  @Test
  void aTornLastRecordIsCutOffSilently() throws IOException {
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      for (int i = 0; i < 5; i++) {
        frontier.offer(url(i));
      }
    }
    Path segment = lastSegment();
    long length = Files.size(segment);
    try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
      file.setLength(length - 7); // the last record loses its tail, as after a kill in the middle of a write
    }
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      assertEquals(List.of(url(0), url(1), url(2), url(3)), drain(frontier));
      assertTrue(frontier.offer(url(4)), "the torn record's URL was never admitted for good");
    }
  }

  @Test
  void aFilterCheckpointCutOffByAKillIsRemovedWhenTheFrontierOpens() throws IOException {
    open(dir, 1 << 20).close();
    Path leftover = Files.write(dir.resolve("filter-000000000001-24.bf1234.tmp"), new byte[4096]);
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      assertFalse(Files.exists(leftover));
    }
  }

  @Test
  void aWholeFilterFileNoCheckpointNamesIsRemovedWhenTheFrontierOpens() throws IOException {
    Path named;
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      for (int i = 0; i < 50; i++) {
        frontier.offer(url(i));
      }
      frontier.checkpoint();
      named = filterFiles().get(0);
    }
    // A kill after a filter file was renamed into place and before the checkpoint named it leaves it whole; one
    // after the checkpoint and before the previous filter was deleted leaves that one.
    Path newer = Files.copy(named, dir.resolve("filter-000000000001-9999-n100000-p0.001.bf"));
    Path older = Files.copy(named, dir.resolve("filter-000000000001-24-n100000-p0.001.bf"));
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      assertEquals(List.of(named), filterFiles());
      assertFalse(Files.exists(newer));
      assertFalse(Files.exists(older));
      assertFalse(frontier.offer(url(3)), "the named filter was read");
    }
  }

  private List<Path> filterFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".bf")).sorted().toList();
    }
  }

  @Test
  void aLogShorterThanItsCheckpointSaysIsRefusedNotReadAsATornTail() throws IOException {
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      for (int i = 0; i < 50; i++) {
        frontier.offer(url(i));
      }
      frontier.checkpoint(); // the log up to here was forced: no kill can leave it shorter
    }
    Path segment = lastSegment();
    try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
      file.setLength(file.length() / 2); // a copy cut short
    }
    FrontierCorruptException e = assertThrows(FrontierCorruptException.class, () -> open(dir, 1 << 20));
    assertTrue(e.getMessage().contains("before " + segment.getFileName() + "@"), e.getMessage());
    assertTrue(e.getMessage().contains("which the checkpoint says was on disk"), e.getMessage());
  }

  @Test
  void aDamagedRecordBeforeTheEndOfTheLogIsRefusedNamingTheFile() throws IOException {
    try (DiskFrontier<String> frontier = open(dir, 4096)) {
      for (int i = 0; i < 500; i++) {
        frontier.offer(url(i));
      }
    }
    Path first;
    try (Stream<Path> files = Files.list(dir)) {
      first = files.filter(f -> f.getFileName().toString().startsWith("log-")).sorted().findFirst().orElseThrow();
    }
    flipByte(first, taskByteOf(first, 2));
    FrontierCorruptException e = assertThrows(FrontierCorruptException.class, () -> open(dir, 4096));
    assertTrue(e.getMessage().contains(first.getFileName() + " at byte"), e.getMessage());
    assertTrue(e.getMessage().contains("not at the end of the log"), e.getMessage());
  }

  @Test
  void aDamagedRecordInsideTheLastSegmentIsRefusedButZerosAfterTheLastRecordAreATornTail() throws IOException {
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      for (int i = 0; i < 50; i++) {
        frontier.offer(url(i));
      }
    }
    Path segment = lastSegment();
    long length = Files.size(segment);
    try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
      file.setLength(length + 4096); // space allocated but never written, as a power cut can leave
    }
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      assertEquals(50, drain(frontier).size());
    }
    flipByte(segment, taskByteOf(segment, 3));
    FrontierCorruptException e = assertThrows(FrontierCorruptException.class, () -> open(dir, 1 << 20));
    assertTrue(e.getMessage().contains(segment.getFileName() + " at byte"), e.getMessage());
  }

  @Test
  void aSegmentOfAnotherVersionIsRefused() throws IOException {
    open(dir, 1 << 20).close();
    Path segment = lastSegment();
    try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
      file.seek(4);
      file.writeInt(99);
    }
    FrontierCorruptException e = assertThrows(FrontierCorruptException.class, () -> open(dir, 1 << 20));
    assertEquals(segment + ": segment format version 99, but this build reads version 2", e.getMessage());
  }

  @Test
  void aDamagedCheckpointIsRefused() throws IOException {
    open(dir, 1 << 20).close();
    Path checkpoint = dir.resolve("checkpoint");
    Files.writeString(checkpoint, Files.readString(checkpoint).replace("n=100000", "n=100001"));
    FrontierCorruptException e = assertThrows(FrontierCorruptException.class, () -> open(dir, 1 << 20));
    assertTrue(e.getMessage().startsWith(checkpoint + ": checksum mismatch"), e.getMessage());
  }

  @Test
  void aTruncatedFilterCheckpointIsRefusedNamingIt() throws IOException {
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      frontier.offer(url(1));
      frontier.checkpoint();
    }
    Path filter;
    try (Stream<Path> files = Files.list(dir)) {
      filter = files.filter(f -> f.toString().endsWith(".bf")).findFirst().orElseThrow();
    }
    try (RandomAccessFile file = new RandomAccessFile(filter.toFile(), "rw")) {
      file.setLength(file.length() / 2);
    }
    FrontierCorruptException e = assertThrows(FrontierCorruptException.class, () -> open(dir, 1 << 20));
    assertTrue(e.getMessage().startsWith(filter + ": truncated"), e.getMessage());
  }

  @Test
  void anotherNOrPIsRefused() throws IOException {
    open(dir, 1 << 20).close();
    FrontierCorruptException e = assertThrows(FrontierCorruptException.class,
        () -> DiskFrontier.open(dir, 100_000, 0.01, Strings.CODEC, s -> s, s -> "", Strings.quietOptions(1 << 20),
            Ticker.SYSTEM));
    assertTrue(e.getMessage().endsWith("this frontier's URL filter was sized for n = 100,000 and p = 0.001; it cannot"
        + " change to n = 100,000, p = 0.01 (only a frontier with an exact store can rebuild its filter)"),
        e.getMessage());
  }

  @Test
  void outOfOrderCompletionsSurviveAReopen() throws IOException {
    try (DiskFrontier<String> frontier = open(dir, 4096)) {
      for (int i = 0; i < 300; i++) {
        frontier.offer(url(i));
      }
      List<Claim<String>> claims = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        claims.add(takeOne(frontier));
      }
      for (int i = 299; i >= 1; i--) {
        frontier.complete(claims.get(i)); // everything but the oldest: the watermark stays at the first task
      }
      frontier.checkpoint();
    }
    try (DiskFrontier<String> frontier = open(dir, 4096)) {
      assertEquals(List.of(url(0)), drain(frontier));
    }
  }

  @Test
  void concurrentOffersAndCheckpointsLoseNoUrl() throws Exception {
    int threads = 4;
    int perThread = 20_000;
    try (DiskFrontier<String> frontier = open(dir, 64 * 1024)) {
      List<Thread> offerers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int from = t * perThread / 2; // threads overlap by half
        offerers.add(Thread.ofPlatform().start(() -> {
          for (int i = from; i < from + perThread; i++) {
            frontier.offer(url(i));
          }
        }));
      }
      Thread checkpointer = Thread.ofPlatform().start(() -> {
        try {
          for (int i = 0; i < 5; i++) {
            frontier.checkpoint();
          }
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      for (Thread t : offerers) {
        t.join();
      }
      checkpointer.join();
    }
    int distinct = (threads - 1) * perThread / 2 + perThread;
    try (DiskFrontier<String> frontier = open(dir, 64 * 1024)) {
      List<String> tasks = drain(frontier);
      Set<String> unique = new HashSet<>(tasks);
      assertEquals(tasks.size(), unique.size(), "no task twice");
      long admitted = frontier.stats().admitted();
      assertEquals(admitted, tasks.size(), "every admitted task is still there");
      assertTrue(distinct - admitted < 100, "false positives only: " + (distinct - admitted) + " of " + distinct);
      for (int i = 0; i < distinct; i++) {
        assertFalse(frontier.offer(url(i)), "the filter knows " + i);
      }
    }
  }

  private static int indexOf(String url) {
    return Integer.parseInt(url.substring(url.indexOf("/page/") + 6, url.indexOf('?')));
  }

  /** A byte inside the task of the {@code n}th record (from 0) of a segment: covered by the record's checksum. */
  private static long taskByteOf(Path segment, int n) throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "r")) {
      long at = LogFormat.HEADER_BYTES;
      for (int i = 0; i < n; i++) {
        file.seek(at);
        at += LogFormat.RECORD_HEADER_BYTES + file.readInt() + LogFormat.NEXT_BYTES; // task records only here
      }
      return at + LogFormat.RECORD_HEADER_BYTES + LogFormat.FIXED_BODY_BYTES + 2;
    }
  }

  private long segmentCount() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().startsWith("log-")).count();
    }
  }

  private Path lastSegment() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().startsWith("log-")).sorted().reduce((a, b) -> b)
          .orElseThrow();
    }
  }

  private static void flipByte(Path file, long at) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 0x40);
    }
  }
}

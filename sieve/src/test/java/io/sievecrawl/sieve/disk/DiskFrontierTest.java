package io.sievecrawl.sieve.disk;

import static io.sievecrawl.sieve.disk.Strings.open;
import static io.sievecrawl.sieve.disk.Strings.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.SieveStats;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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
      assertEquals("https://a.example/1", frontier.poll().task());
      assertTrue(frontier.offer("https://a.example/3"));
      assertEquals("https://a.example/2", frontier.poll().task());
      assertEquals("https://a.example/3", frontier.poll().task());
      assertNull(frontier.poll());
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
      Claim<String> parent = frontier.poll();
      frontier.offer("https://a.example/child");
      frontier.complete(parent);
      assertFalse(frontier.isFinished());
      frontier.complete(frontier.poll());
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
        Claim<String> claim = frontier.poll();
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
  void aRequeuedTaskComesBackAtTheTailAndOnlyOnceAfterAReopen() throws IOException {
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      frontier.offer(url(0));
      frontier.offer(url(1));
      long id = frontier.requeue(frontier.poll());
      assertEquals(url(1), frontier.poll().task());
      assertEquals(new Claim<>(url(0), id), frontier.poll());
    }
    try (DiskFrontier<String> frontier = open(dir, 1 << 20)) {
      assertEquals(List.of(url(1), url(0)), drain(frontier), "the old place of the requeued task is done");
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
        frontier.complete(frontier.poll());
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
    flipByte(first, 200);
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
    flipByte(segment, 300);
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
    assertEquals(segment + ": segment format version 99, but this build reads version 1", e.getMessage());
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
        () -> DiskFrontier.open(dir, 100_000, 0.01, Strings.CODEC, s -> s, Strings.quietOptions(1 << 20)));
    assertTrue(e.getMessage().endsWith("this frontier's URL filter was sized for n = 100000 and p = 0.001; it cannot"
        + " change to n = 100000, p = 0.01"), e.getMessage());
  }

  @Test
  void outOfOrderCompletionsSurviveAReopen() throws IOException {
    try (DiskFrontier<String> frontier = open(dir, 4096)) {
      for (int i = 0; i < 300; i++) {
        frontier.offer(url(i));
      }
      List<Claim<String>> claims = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        claims.add(frontier.poll());
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

  private static List<String> drain(DiskFrontier<String> frontier) {
    List<String> tasks = new ArrayList<>();
    for (Claim<String> claim = frontier.poll(); claim != null; claim = frontier.poll()) {
      tasks.add(claim.task());
    }
    return tasks;
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

package io.sievecrawl.sieve.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.FingerprintSet;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FingerprintRunTest {
  @TempDir Path dir;

  @Test
  void findsEveryFingerprintItHoldsAndNoOther() throws IOException {
    Random random = new Random(3);
    FingerprintSet in = new FingerprintSet();
    in.add(0);
    in.add(-1); // the largest unsigned
    while (in.size() < 5_000) {
      in.add(random.nextLong());
    }
    FingerprintRun run = FingerprintRun.write(dir.resolve("seen-000000000001.run"), in.toSortedArray());
    assertEquals(5_000, run.count());
    assertEquals(FingerprintRun.HEADER_BYTES + 5_000 * 8, Files.size(run.file()));
    for (long f : in.toSortedArray()) {
      assertTrue(run.contains(f), Long.toUnsignedString(f));
    }
    int absent = 0;
    for (int i = 0; i < 100_000; i++) {
      long f = random.nextLong();
      if (!in.contains(f)) {
        absent++;
        assertFalse(run.contains(f));
      }
    }
    assertTrue(absent > 99_000);
    FingerprintRun again = FingerprintRun.open(run.file());
    assertTrue(again.contains(-1) && again.contains(0));
  }

  @Test
  void anEmptyRunHoldsNothing() throws IOException {
    FingerprintRun run = FingerprintRun.write(dir.resolve("seen-000000000001.run"), new long[0]);
    assertFalse(run.contains(0));
    assertEquals(0, FingerprintRun.open(run.file()).count());
  }

  @Test
  void aMergeHoldsTheUnionOnce() throws IOException {
    List<FingerprintRun> runs = new ArrayList<>();
    FingerprintSet all = new FingerprintSet();
    Random random = new Random(4);
    for (int r = 0; r < 3; r++) {
      FingerprintSet part = new FingerprintSet();
      for (int i = 0; i < 2_000; i++) {
        long f = random.nextInt(3) == 0 ? random.nextInt(500) : random.nextLong(); // some in several runs
        part.add(f);
        all.add(f);
      }
      runs.add(FingerprintRun.write(dir.resolve("seen-00000000000" + r + ".run"), part.toSortedArray()));
    }
    FingerprintRun merged = FingerprintRun.merge(dir.resolve("seen-000000000009.run"), runs);
    assertEquals(all.size(), merged.count());
    List<Long> read = new ArrayList<>();
    merged.forEach(read::add);
    long[] expected = all.toSortedArray();
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], read.get(i));
    }
  }

  @Test
  void aDamagedOrShortenedRunIsRefusedByName() throws IOException {
    long[] sorted = new long[1_000];
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = i * 7L + 1;
    }
    Path file = FingerprintRun.write(dir.resolve("seen-000000000001.run"), sorted).file();
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(FingerprintRun.HEADER_BYTES + 800);
      raf.write(0x55);
    }
    FrontierCorruptException damaged = assertThrows(FrontierCorruptException.class, () -> FingerprintRun.open(file));
    assertTrue(damaged.getMessage().startsWith(file + ": "), damaged.getMessage());
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(raf.length() - 4);
    }
    FrontierCorruptException shortened = assertThrows(FrontierCorruptException.class,
        () -> FingerprintRun.open(file));
    assertTrue(shortened.getMessage().contains("its header says 1000 fingerprints"), shortened.getMessage());
  }
}

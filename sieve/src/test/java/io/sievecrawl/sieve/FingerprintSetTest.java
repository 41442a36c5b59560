package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

class FingerprintSetTest {

  @Test
  void behavesAsASetOfLongsZeroAndSignsIncluded() {
    FingerprintSet set = new FingerprintSet();
    Set<Long> expected = new HashSet<>();
    Random random = new Random(5);
    for (int i = 0; i < 200_000; i++) {
      long f = switch (i % 5) {
        case 0 -> 0;
        case 1 -> random.nextInt(1000); // repeats
        default -> random.nextLong();
      };
      assertEquals(expected.add(f), set.add(f), "add " + f);
    }
    assertEquals(expected.size(), set.size());
    for (long f : expected) {
      assertTrue(set.contains(f));
    }
    assertFalse(set.contains(-1L) && !expected.contains(-1L));
    long[] sorted = expected.stream().mapToLong(Long::longValue).map(f -> f ^ Long.MIN_VALUE).sorted()
        .map(f -> f ^ Long.MIN_VALUE).toArray();
    assertArrayEquals(sorted, set.toSortedArray(), "ascending unsigned");
    Set<Long> visited = new HashSet<>();
    set.forEach(f -> assertTrue(visited.add(f), "once: " + f));
    assertEquals(expected, visited);
  }

  @Test
  void stripedSetSortsAcrossStripesAndTellsOneRacerItAdded() throws InterruptedException {
    StripedFingerprintSet set = new StripedFingerprintSet();
    int distinct = 50_000;
    AtomicLongArray winners = new AtomicLongArray(distinct);
    new ConcurrentRun().add(4, () -> {
      for (int i = 0; i < distinct; i++) {
        if (set.add(fingerprint(i))) {
          winners.incrementAndGet(i);
        }
      }
    }).run(60, TimeUnit.SECONDS);
    for (int i = 0; i < distinct; i++) {
      assertEquals(1, winners.get(i), "fingerprint " + i + " added once");
    }
    long[] sorted = set.toSortedArray();
    assertEquals(distinct, sorted.length);
    for (int i = 1; i < sorted.length; i++) {
      assertTrue(Long.compareUnsigned(sorted[i - 1], sorted[i]) < 0, "ascending at " + i);
    }
  }

  private static long fingerprint(int i) {
    return (i + 1) * 0x9e3779b97f4a7c15L;
  }
}

package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ShardsTest {
  /** Hosts named alike differ in few bits of their hash codes; they must still fill every shard about evenly. */
  @Test
  void hostsNamedAlikeSpreadOverEveryShard() {
    int[] load = new int[64];
    for (int i = 0; i < 6_400; i++) {
      load[Shards.of(("h" + i + ".example").hashCode(), 64)]++;
    }
    // 100 a shard on average; a binomial's standard deviation is about 10, so 4 of them either side.
    assertTrue(IntStream.of(load).allMatch(n -> n >= 60 && n <= 140), () -> java.util.Arrays.toString(load));
  }

  @Test
  void aShardIsWithinRangeForEveryHashAndCount() {
    for (int hash : new int[] {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x9E3779B9}) {
      for (int count : new int[] {1, 2, 3, 64, 1_000}) {
        int shard = Shards.of(hash, count);
        assertTrue(shard >= 0 && shard < count, hash + " among " + count + " gave " + shard);
      }
    }
    assertEquals(0, Shards.of(12_345, 1));
    assertThrows(IllegalArgumentException.class, () -> Shards.of(1, 0));
  }
}

package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CountMinSketchTest {
  @Test
  void neverUnderCountsAndOverCountsLittleWhileTheTotalIsSmallAgainstTheWidth() {
    CountMinSketch sketch = CountMinSketch.create(1 << 12, 4);
    Map<String, Integer> truth = new HashMap<>();
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < 20_000; i++) {
      String key = "https://host" + random.nextInt(2_000) + ".example";
      assertTrue(sketch.incrementIfBelow(key, Long.MAX_VALUE));
      truth.merge(key, 1, Integer::sum);
    }
    int exact = 0;
    for (Map.Entry<String, Integer> e : truth.entrySet()) {
      long estimate = sketch.estimate(e.getKey());
      assertTrue(estimate >= e.getValue(), e.getKey());
      // e/w times the total (20,000 / 4,096 * e, about 13) bounds the excess with probability 1 - e^-4 per key
      assertTrue(estimate - e.getValue() <= 14, e.getKey() + ": " + estimate + " for " + e.getValue());
      exact += estimate == e.getValue() ? 1 : 0;
    }
    assertTrue(exact > truth.size() * 9 / 10, exact + " of " + truth.size() + " exact");
  }

  @Test
  void concurrentIncrementsNeverTakeAKeyPastItsLimit() throws InterruptedException {
    CountMinSketch sketch = CountMinSketch.create(1 << 10, 4);
    AtomicInteger counted = new AtomicInteger();
    Thread[] threads = new Thread[8];
    for (int t = 0; t < threads.length; t++) {
      threads[t] = Thread.ofPlatform().start(() -> {
        for (int i = 0; i < 5_000; i++) {
          if (sketch.incrementIfBelow("https://example.com", 1_000)) {
            counted.incrementAndGet();
          }
        }
      });
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(1_000, counted.get());
    assertEquals(1_000, sketch.estimate("https://example.com"));
    assertFalse(sketch.incrementIfBelow("https://example.com", 1_000));
  }

  @Test
  void savedBytesReadBackToTheSameCountsAndASparseSketchSavesSmall() {
    CountMinSketch sketch = CountMinSketch.create(CountMinSketch.DEFAULT_WIDTH, CountMinSketch.DEFAULT_DEPTH);
    for (int i = 0; i < 300; i++) {
      sketch.incrementIfBelow("https://site" + (i % 3) + ".example", Long.MAX_VALUE);
    }
    assertEquals(300, sketch.updates());
    byte[] saved = sketch.toBytes();
    assertTrue(saved.length < 16_384, "2 MB of mostly zeros deflated: " + saved.length);
    CountMinSketch read = CountMinSketch.fromBytes(saved);
    for (int s = 0; s < 3; s++) {
      assertEquals(100, read.estimate("https://site" + s + ".example"));
    }
    assertArrayEquals(saved, read.toBytes());
    assertEquals(0, read.updates(), "counted since it was read");
  }

  @Test
  void theUndeflatedFormOfEarlierReleasesIsRead() {
    int width = 64;
    int depth = 2;
    int[] counts = new int[width * depth];
    for (int r = 0; r < depth; r++) {
      counts[CountMinSketch.positions("https://example.com", width, depth)[r]] = 7;
    }
    ByteBuffer old = ByteBuffer.allocate(12 + 4 * counts.length);
    old.putInt(0x5356434d).putInt(width).putInt(depth).asIntBuffer().put(counts);
    assertEquals(7, CountMinSketch.fromBytes(old.array()).estimate("https://example.com"));
  }

  @Test
  void damagedBytesAreRefused() {
    byte[] saved = CountMinSketch.create(1 << 10, 4).toBytes();
    byte[] cut = Arrays.copyOf(saved, saved.length - 3);
    assertThrows(IllegalArgumentException.class, () -> CountMinSketch.fromBytes(cut));
    byte[] garbled = saved.clone();
    garbled[14] ^= 0x55;
    assertThrows(IllegalArgumentException.class, () -> CountMinSketch.fromBytes(garbled));
    byte[] wrongSize = saved.clone();
    ByteBuffer.wrap(wrongSize).putInt(4, 1 << 11);
    assertThrows(IllegalArgumentException.class, () -> CountMinSketch.fromBytes(wrongSize));
    assertThrows(IllegalArgumentException.class, () -> CountMinSketch.fromBytes(new byte[] {1, 2, 3}));
  }
}

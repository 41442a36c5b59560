package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BloomFilterTest {
  private final UrlCorpus urls = new UrlCorpus(1);

  @Test
  void addReportsNewOnlyTheFirstTime() {
    BloomFilter filter = BloomFilter.create(1000, 0.01);
    assertTrue(filter.add("https://example.com/"));
    assertFalse(filter.add("https://example.com/"));
    assertFalse(filter.add(new StringBuilder("https://example.com/")), "a CharSequence hashes like its String");
    assertTrue(filter.mightContain("https://example.com/"));
    assertFalse(filter.mightContain("https://example.com/other"));
  }

  @Test
  void everyAddedElementIsFoundAgain() {
    BloomFilter filter = BloomFilter.create(200_000, 0.001);
    for (int i = 0; i < 200_000; i++) {
      filter.add(urls.url(i));
    }
    for (int i = 0; i < 200_000; i++) {
      assertTrue(filter.mightContain(urls.url(i)), i + " was added");
    }
  }

  @Test
  void setBitsAreCountedAsTheyFlipAndMatchAFullScan() {
    BloomFilter filter = BloomFilter.create(50_000, 0.01);
    for (int i = 0; i < 80_000; i++) {
      filter.add(urls.url(i));
    }
    long scanned = 0;
    for (long word : filter.words()) {
      scanned += Long.bitCount(word);
    }
    assertEquals(scanned, filter.bitCount());
  }

  @Test
  void sizeEstimateIsWithinTwoPercentFromATenthToTwiceTheCapacity() {
    int n = 1_000_000;
    for (double p : new double[] {0.1, 0.01, 0.0001}) {
      BloomFilter filter = BloomFilter.create(n, p);
      List<String> report = new ArrayList<>();
      long added = 0;
      for (long checkpoint : new long[] {n / 10, n / 4, n / 2, n, 3L * n / 2, 2L * n}) {
        while (added < checkpoint) {
          filter.add(urls.url(added++));
        }
        double error = (double) filter.approximateElementCount() / checkpoint - 1;
        report.add(String.format("p=%s at %d: estimate %d (%+.3f%%)", p, checkpoint,
            filter.approximateElementCount(), 100 * error));
        assertTrue(Math.abs(error) <= 0.02, String.join("\n", report));
      }
      System.out.println(String.join("\n", report));
    }
  }

  @Test
  void currentFalsePositiveRateFollowsTheFill() {
    BloomFilter filter = BloomFilter.create(100_000, 0.01);
    assertEquals(0.0, filter.expectedFpp());
    for (int i = 0; i < 100_000; i++) {
      filter.add(urls.url(i));
    }
    assertEquals(filter.sizing().expectedFppAt(100_000), filter.expectedFpp(), 0.001);
    for (int i = 100_000; i < 200_000; i++) {
      filter.add(urls.url(i));
    }
    assertTrue(filter.expectedFpp() > 0.01, "over capacity the rate exceeds the target: " + filter.expectedFpp());
  }

  @Test
  void filtersLargerThanTwoToTheThirtyOneBitsAddressEveryBlock() {
    // 2^31 + 2^25 bits (272 MB): block indexes and bit offsets past 2^31 must not overflow.
    BloomSizing sizing = new BloomSizing(1_000_000, 0.01, BloomSizing.classicalBits(1_000_000, 0.01), 7,
        (1L << 31) / 512 + (1L << 16));
    BloomFilter filter = BloomFilter.create(sizing, BloomFilter.DEFAULT_SEED);
    assertTrue(filter.bitSize() > Integer.MAX_VALUE);
    int beyond = 0;
    for (int i = 0; i < 100_000; i++) {
      String url = urls.url(i);
      if ((long) filter.blockOf(Murmur3.hash128(url, filter.seed()).h1()) * 512 > Integer.MAX_VALUE) {
        beyond++;
      }
      assertTrue(filter.add(url));
    }
    assertTrue(beyond > 1000, "about 3% of blocks lie past bit 2^31, saw " + beyond);
    for (int i = 0; i < 100_000; i++) {
      assertTrue(filter.mightContain(urls.url(i)));
    }
    assertEquals(100_000, filter.approximateElementCount(), 1_000);
  }

  @Test
  void probesNeverCollapseWhenTheSecondHashIsZero() {
    BloomFilter filter = BloomFilter.create(1000, 0.001);
    assertTrue(filter.add(new Hash128(0, 0)));
    assertEquals(filter.hashCount(), filter.bitCount(), "an odd step keeps the k probes of a zero hash distinct");
    assertTrue(filter.mightContain(new Hash128(0, 0)));
  }

  @Test
  void refusesInvalidSizesWithTheValueInTheMessage() {
    assertEquals("expected insertions (n) must be at least 1, was -5",
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(-5, 0.01)).getMessage());
    assertEquals("false-positive rate (p) must be in [1.0E-10, 1), was 1.0",
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(100, 1.0)).getMessage());
  }

  @Test
  void aProbeNamesTheBitsThatAddSets() {
    BloomFilter filter = BloomFilter.create(BloomSizing.of(10_000, 0.001), 77);
    UrlCorpus urls = new UrlCorpus(5);
    for (int i = 0; i < 200; i++) {
      String url = urls.url(i);
      BloomFilter.Probe probe = BloomFilter.probe(url, filter.sizing(), filter.seed());
      assertEquals(filter.probe(url).block(), probe.block());
      filter.add(url);
      long[] words = filter.words();
      for (int bit : probe.bits()) {
        long word = words[probe.block() * 8 + (bit >>> 6)];
        assertTrue((word & (1L << bit)) != 0, url + " bit " + bit);
      }
    }
    assertEquals(filter.bitCount(), java.util.Arrays.stream(filter.words()).map(Long::bitCount).sum());
  }
}

package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The summary's "new URLs lost to false positives" matches what a filter really loses, and never exceeds the
 * duplicates it dropped.
 *
 * <p>Tolerance: inserting 1.5n to 5n distinct URLs into a filter sized for n loses over a thousand of them to false
 * positives; their count is a sum of independent Bernoulli trials, so its standard deviation is below the square
 * root of its mean (3% of it at most here). The estimate's own error, measured, is 1% to 5% over these fills; 10%
 * leaves room for both, and the seed is fixed.
 */
class FalsePositiveEstimateTest {
  private static final int N = 100_000;

  @ParameterizedTest(name = "{0} x capacity at p = {1}")
  @CsvSource({"1.5, 0.01", "2, 0.01", "3, 0.01", "5, 0.01", "3, 0.001"})
  void theEstimateMatchesTheFalsePositivesMeasuredWhileFilling(double timesCapacity, double p) {
    BloomFilter filter = BloomFilter.create(N, p);
    UrlCorpus corpus = new UrlCorpus(21);
    StringBuilder url = new StringBuilder(128);
    long lost = 0;
    long offered = Math.round(timesCapacity * N);
    for (int i = 0; i < offered; i++) {
      url.setLength(0);
      corpus.appendUrl(i, url);
      if (!filter.add(url)) {
        lost++; // a distinct URL the filter took for one seen
      }
    }
    BloomSizing sizing = filter.sizing();
    double estimate = sizing.expectedFalsePositives(sizing.estimateElements(filter.bitCount()));
    System.out.printf("%d of %d new URLs lost; estimated %.1f%n", lost, offered, estimate);
    assertTrue(lost > 1_000, "enough losses to measure: " + lost);
    assertEquals(lost, estimate, 0.1 * lost);
    // Among other duplicates (URLs truly seen again), the summary reports the same estimate.
    SieveStats stats = SieveStats.of(offered - lost, lost + 50_000, 0, 0, 0, filter, 1);
    assertEquals(estimate, stats.estimatedFalsePositiveDrops(), 1e-9);
  }

  @Test
  void theEstimateNeverExceedsTheDuplicatesDropped() {
    BloomFilter filter = BloomFilter.create(1_000, 0.01);
    for (int i = 0; i < 20_000; i++) {
      filter.add("https://example.com/" + i); // far over capacity: the filter's rate is near 1
    }
    SieveStats stats = SieveStats.of(20_000, 5, 0, 0, 0, filter, 1); // a crawl that met few duplicates
    assertEquals(5, stats.estimatedFalsePositiveDrops(), 1e-9);
    assertEquals(0, SieveStats.of(0, 0, 0, 0, 0, BloomFilter.create(1_000, 0.01), 0).estimatedFalsePositiveDrops());
  }
}

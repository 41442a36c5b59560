package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The measured false-positive rate after n distinct insertions is at most the target p.
 *
 * <p>Tolerance: the filter is sized so that its expected rate at n is 0.9 p (BloomSizing). With N absent probes
 * the count of false positives is binomial with mean 0.9 p N and standard deviation sqrt(0.9 p N). N is chosen so
 * that the gap to p, 0.1 p N, is at least 4 standard deviations: 0.1 p N >= 4 sqrt(0.9 p N), i.e.
 * N >= 1440 / p. So a correct filter stays under p except with probability below 1 in 30,000 for a given seed, and
 * the seed is fixed; a filter whose true rate reaches p fails half the time or more.
 */
class BloomFilterFalsePositiveIT {
  private static final int N = 1_000_000;

  @ParameterizedTest(name = "p = {0}, {1}")
  @CsvSource({"0.1, URL", "0.01, URL", "0.001, URL", "0.0001, URL",
      "0.1, FINGERPRINT", "0.01, FINGERPRINT", "0.001, FINGERPRINT", "0.0001, FINGERPRINT"})
  void measuredRateAfterNInsertionsIsAtMostTheTarget(double p, BloomFilter.Hashing hashing) {
    BloomFilter filter = BloomFilter.create(BloomSizing.of(N, p), BloomFilter.DEFAULT_SEED, hashing);
    UrlCorpus inserted = new UrlCorpus(11);
    StringBuilder url = new StringBuilder(128);
    for (int i = 0; i < N; i++) {
      url.setLength(0);
      inserted.appendUrl(i, url);
      filter.add(url);
    }
    long probes = Math.max(1_000_000, (long) Math.ceil(1440 / p));
    UrlCorpus absent = new UrlCorpus(12); // a different seed: none of these URLs was inserted
    long falsePositives = 0;
    for (long i = 0; i < probes; i++) {
      url.setLength(0);
      absent.appendUrl(N + i, url);
      if (filter.mightContain(url)) {
        falsePositives++;
      }
    }
    double measured = (double) falsePositives / probes;
    System.out.printf("p=%s, %s: %d false positives in %d probes, rate %.3g (%.3f p); %d bits (%.3f x classical)%n",
        p, hashing, falsePositives, probes, measured, measured / p, filter.bitSize(), filter.sizing().overheadRatio());
    assertTrue(measured <= p, () -> "measured " + measured + " above target " + p);
    assertTrue(filter.sizing().overheadRatio() <= 1.2, "at most 1.2 x the classical bits");
  }
}

package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class AdmissionTest {

  @Test
  void atFiveTimesCapacityNothingIsLostAndEveryRescueIsCounted() {
    int n = 10_000;
    Admission confirmed = Admission.confirmedOnHeap(n, 0.01);
    // The same filter alone, fed the same URLs: it tells which of them a filter alone would have lost.
    BloomFilter alone = BloomFilter.create(BloomSizing.of(n, 0.01), BloomFilter.DEFAULT_SEED,
        BloomFilter.Hashing.FINGERPRINT);
    UrlCorpus corpus = new UrlCorpus(31);
    long lostAlone = 0;
    for (int i = 0; i < 5 * n; i++) {
      String url = corpus.url(i);
      if (!alone.add(url)) {
        lostAlone++;
      }
      assertTrue(confirmed.admit(url), "new URL " + i + " admitted");
      if (i % 3 == 0) {
        assertFalse(confirmed.admit(url), "a URL seen is refused");
        assertFalse(confirmed.admit(corpus.url(i / 2)), "an older URL seen is refused");
      }
    }
    assertTrue(lostAlone > 5_000, "the filter alone loses many: " + lostAlone);
    assertEquals(lostAlone, confirmed.rescued());
  }

  @Test
  void racingOffersOfOneUrlAdmitItOnceWhateverTheFilterSays() throws InterruptedException {
    int urls = 20_000;
    Admission admission = Admission.confirmedOnHeap(1_000, 0.1); // saturated: "maybe seen" nearly always
    UrlCorpus corpus = new UrlCorpus(32);
    String[] all = new String[urls];
    for (int i = 0; i < urls; i++) {
      all[i] = corpus.url(i);
    }
    AtomicIntegerArray admitted = new AtomicIntegerArray(urls);
    new ConcurrentRun().add(4, () -> {
      for (int i = 0; i < urls; i++) {
        if (admission.admit(all[i])) {
          admitted.incrementAndGet(i);
        }
      }
    }).run(60, TimeUnit.SECONDS);
    for (int i = 0; i < urls; i++) {
      assertEquals(1, admitted.get(i), "URL " + i + " admitted exactly once");
    }
  }

  @Test
  void aConfirmedSieveReportsRescuesAndNoEstimatedLoss() {
    Sieve<String> sieve = Sieve.over(Admission.confirmedOnHeap(100, 0.01), url -> url, url -> "", "n");
    for (int i = 0; i < 2_000; i++) {
      assertTrue(sieve.offer("https://example.com/" + i));
      assertFalse(sieve.offer("https://example.com/" + i));
    }
    SieveStats stats = sieve.stats();
    assertTrue(stats.confirmed());
    assertEquals(2_000, stats.admitted());
    assertEquals(2_000, stats.duplicatesDropped());
    assertTrue(stats.rescued() > 1_000, "rescued " + stats.rescued());
    assertEquals(0, stats.estimatedFalsePositiveDrops());
  }
}

package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
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
  void anOfferThatFindsTheBitsARacingOfferOfTheSameUrlSetIsNoRescue() throws Exception {
    // A flips the URL's bits and waits at the store; B finds them set ("maybe seen") and wins the store: the URL is
    // admitted once, by B, and no false positive happened (at p = 1e-10 there is none to find).
    SeenStore heap = SeenStore.inMemory();
    CountDownLatch aAtStore = new CountDownLatch(1);
    CountDownLatch bDone = new CountDownLatch(1);
    ThreadLocal<Boolean> isA = ThreadLocal.withInitial(() -> false);
    SeenStore store = new SeenStore() {
      @Override
      public boolean containsSettled(long fingerprint) {
        return heap.containsSettled(fingerprint);
      }

      @Override
      public boolean addRecent(long fingerprint) {
        if (isA.get()) {
          aAtStore.countDown();
          try {
            bDone.await();
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        }
        return heap.addRecent(fingerprint);
      }
    };
    Admission admission = Admission.confirmed(BloomFilter.create(BloomSizing.of(1_000_000, 1e-10),
        BloomFilter.DEFAULT_SEED, BloomFilter.Hashing.FINGERPRINT), store);
    String url = "https://example.com/page";
    CompletableFuture<Boolean> a = CompletableFuture.supplyAsync(() -> {
      isA.set(true);
      return admission.admit(url);
    }, runnable -> new Thread(runnable, "offer-a").start());
    assertTrue(aAtStore.await(60, TimeUnit.SECONDS), "A reached the store");
    boolean b = admission.admit(url);
    bDone.countDown();
    assertTrue(b, "B won the store");
    assertFalse(a.get(60, TimeUnit.SECONDS), "A lost it");
    assertEquals(0, admission.rescued(), "a race of two offers of one URL is no false positive");
    assertTrue(admission.admit("https://example.com/other"));
    assertEquals(0, admission.rescued());
  }

  @Test
  void racingOffersOfManyUrlsCountNoRescueWhereTheFilterHasNoFalsePositive() throws InterruptedException {
    int urls = 20_000;
    Admission admission = Admission.confirmed(BloomFilter.create(BloomSizing.of(1_000_000, 1e-10),
        BloomFilter.DEFAULT_SEED, BloomFilter.Hashing.FINGERPRINT), SeenStore.inMemory());
    UrlCorpus corpus = new UrlCorpus(33);
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
    assertEquals(0, admission.rescued());
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

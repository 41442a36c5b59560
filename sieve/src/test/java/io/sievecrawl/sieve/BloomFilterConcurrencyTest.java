package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BloomFilterConcurrencyTest {
  private static final int URLS = 300_000;
  private final UrlCorpus corpus = new UrlCorpus(5, 50);

  @Test
  void ofThreadsRacingToAddTheSameAbsentUrlExactlyOneIsToldItIsNew() throws InterruptedException {
    String[] urls = new String[URLS];
    for (int i = 0; i < URLS; i++) {
      urls[i] = corpus.url(i);
    }
    // Sized well over capacity-free so that no URL is a false positive of another: every URL must win once.
    BloomFilter filter = BloomFilter.create(URLS, 1e-9);
    AtomicIntegerArray wins = new AtomicIntegerArray(URLS);
    AtomicInteger nextThread = new AtomicInteger();
    int threads = 4;
    new ConcurrentRun().add(threads, () -> {
      // Each thread walks the same URLs from a different start, so every URL is raced by threads that meet it
      // at different moments, and neighbouring threads collide head-on.
      int offset = nextThread.getAndIncrement() * 7;
      for (int j = 0; j < URLS; j++) {
        int i = (j + offset) % URLS;
        if (filter.add(urls[i])) {
          wins.incrementAndGet(i);
        }
        assertTrue(filter.mightContain(urls[i]), "present as soon as add returned");
      }
    }).run(60, TimeUnit.SECONDS);

    for (int i = 0; i < URLS; i++) {
      assertEquals(1, wins.get(i), urls[i]);
    }
  }

  @Test
  void aUrlAddedInOneThreadIsNeverMissedByAnother() throws InterruptedException {
    BloomFilter filter = BloomFilter.create(URLS, 0.01);
    String[] urls = new String[URLS];
    for (int i = 0; i < URLS; i++) {
      urls[i] = corpus.url(i);
    }
    AtomicLong published = new AtomicLong(-1); // highest index whose add has returned
    AtomicLong misses = new AtomicLong();
    new ConcurrentRun()
        .add(1, () -> {
          for (int i = 0; i < URLS; i++) {
            filter.add(urls[i]);
            published.set(i);
          }
        })
        .add(2, () -> {
          long seen = -1;
          while (seen < URLS - 1) {
            seen = published.get();
            for (long i = Math.max(0, seen - 64); i <= seen; i++) {
              if (!filter.mightContain(urls[(int) i])) {
                misses.incrementAndGet();
              }
            }
          }
        })
        .run(60, TimeUnit.SECONDS);
    assertEquals(0, misses.get());
  }
}

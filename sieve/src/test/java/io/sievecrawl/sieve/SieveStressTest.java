package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Four producers push overlapping URL sets while two consumers take: nothing is taken twice, every admitted URL is
 * taken exactly once, and admissions equal the distinct URLs less false-positive drops.
 */
class SieveStressTest {
  private static final int PRODUCERS = 4;
  private static final int CONSUMERS = 2;
  private static final int PER_PRODUCER = 150_000;
  private static final int OVERLAP_STRIDE = PER_PRODUCER / 2; // producer i pushes [i * stride, i * stride + 150k)
  private static final double P = 0.01;

  @Test
  void everyAdmittedUrlIsTakenExactlyOnce() throws InterruptedException {
    int distinct = (PRODUCERS - 1) * OVERLAP_STRIDE + PER_PRODUCER;
    Sieve<String> sieve = Sieve.forUrls(distinct, P);
    UrlCorpus corpus = new UrlCorpus(9, 200);
    ConcurrentHashMap<String, Integer> takes = new ConcurrentHashMap<>();
    AtomicLong admittedByPush = new AtomicLong();
    AtomicInteger producersLeft = new AtomicInteger(PRODUCERS);
    AtomicInteger nextProducer = new AtomicInteger();

    new ConcurrentRun()
        .add(PRODUCERS, () -> {
          int first = nextProducer.getAndIncrement() * OVERLAP_STRIDE;
          for (int i = first; i < first + PER_PRODUCER; i++) {
            if (sieve.offer(corpus.url(i))) {
              admittedByPush.incrementAndGet();
            }
          }
          producersLeft.decrementAndGet();
        })
        .add(CONSUMERS, () -> {
          try {
            while (true) {
              Claim<String> claim = sieve.take(10, TimeUnit.MILLISECONDS);
              if (claim != null) {
                takes.merge(claim.task(), 1, Integer::sum);
                sieve.complete(claim);
              } else if (producersLeft.get() == 0 && sieve.isFinished()) {
                return;
              }
            }
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
        })
        .run(2, TimeUnit.MINUTES);

    SieveStats stats = sieve.stats();
    Set<String> takenTwice = new HashSet<>();
    takes.forEach((url, count) -> {
      if (count != 1) {
        takenTwice.add(url);
      }
    });
    assertEquals(Set.of(), takenTwice, "URLs taken more than once");
    assertEquals(admittedByPush.get(), takes.size(), "every admitted URL taken");
    assertEquals(admittedByPush.get(), stats.admitted());
    assertEquals(0, stats.queued());
    assertEquals(0, stats.inFlight());

    long pushes = (long) PRODUCERS * PER_PRODUCER;
    assertEquals(pushes, stats.admitted() + stats.duplicatesDropped());
    long falsePositiveDrops = 0;
    for (int i = 0; i < distinct; i++) {
      String url = corpus.url(i);
      if (!takes.containsKey(url)) {
        assertTrue(sieve.filter().mightContain(url), "a URL never taken must have been dropped by the filter");
        falsePositiveDrops++;
      }
    }
    assertEquals(distinct - falsePositiveDrops, stats.admitted(), "admitted = distinct - false-positive drops");
    // Each new URL is dropped with probability at most p (the filter ends at capacity): mean < p * distinct.
    // Allow 5 standard deviations of that binomial.
    double bound = P * distinct + 5 * Math.sqrt(P * distinct);
    System.out.printf("distinct %d, admitted %d, false-positive drops %d (bound %.0f)%n",
        distinct, stats.admitted(), falsePositiveDrops, bound);
    assertTrue(falsePositiveDrops >= 0 && falsePositiveDrops <= bound, "drops " + falsePositiveDrops);
  }
}

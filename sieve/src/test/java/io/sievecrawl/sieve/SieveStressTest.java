package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Four producers push overlapping URL sets over 200 hosts, a queue each, while two consumers check queues out, take
 * from them and release them: nothing is taken twice, every admitted URL is taken exactly once, each queue hands its
 * tasks out in the order they were admitted (checked per producer, whose own admissions are ordered), and admissions
 * equal the distinct URLs less false-positive drops.
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
    Sieve<String> sieve = Sieve.over(BloomFilter.create(distinct, P), url -> url, SieveStressTest::host, "n");
    UrlCorpus corpus = new UrlCorpus(9, 200);
    ConcurrentHashMap<String, Integer> takes = new ConcurrentHashMap<>();
    ConcurrentHashMap<String, Long> admissionOrder = new ConcurrentHashMap<>(); // producer << 32 | its admission
    ConcurrentLinkedQueue<String> outOfOrder = new ConcurrentLinkedQueue<>();
    AtomicLong admittedByPush = new AtomicLong();
    AtomicInteger producersLeft = new AtomicInteger(PRODUCERS);
    AtomicInteger nextProducer = new AtomicInteger();

    new ConcurrentRun()
        .add(PRODUCERS, () -> {
          long producer = nextProducer.getAndIncrement();
          long first = producer * OVERLAP_STRIDE;
          long admittedHere = 0;
          for (long i = first; i < first + PER_PRODUCER; i++) {
            String url = corpus.url(i);
            if (sieve.offer(url)) {
              admissionOrder.put(url, producer << 32 | admittedHere++);
              admittedByPush.incrementAndGet();
            }
          }
          producersLeft.decrementAndGet();
        })
        .add(CONSUMERS, () -> {
          Map<String, Long> lastTaken = new HashMap<>();
          while (true) {
            String queue = sieve.nextQueue();
            if (queue == null) {
              if (producersLeft.get() == 0 && sieve.isFinished()) {
                return;
              }
              Thread.onSpinWait();
              continue;
            }
            for (Claim<String> claim = sieve.poll(queue); claim != null; claim = sieve.poll(queue)) {
              takes.merge(claim.task(), 1, Integer::sum);
              Long order;
              while ((order = admissionOrder.get(claim.task())) == null) {
                Thread.onSpinWait(); // taken before its producer wrote the number down
              }
              String byProducer = queue + " " + (order >>> 32);
              if (order < lastTaken.getOrDefault(byProducer, -1L)) {
                outOfOrder.add(claim.task());
              }
              lastTaken.put(byProducer, order);
              sieve.complete(claim);
            }
            sieve.releaseQueue(queue);
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
    assertEquals(List.of(), List.copyOf(outOfOrder), "URLs taken before one admitted earlier to their queue");
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
    assertTrue(falsePositiveDrops <= bound, "drops " + falsePositiveDrops);
  }

  private static String host(String url) {
    return url.substring(0, url.indexOf('/', url.indexOf("//") + 2));
  }
}

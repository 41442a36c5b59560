package io.sievecrawl.crawler.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.schedule.Politeness;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.Sieve;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaseGateTest {
  private final Sieve<CrawlTask> frontier = Sieve.over(BloomFilter.create(1_000, 0.001), CrawlTask::key,
      CrawlTask::queue, "n");
  private final HostScheduler<CrawlTask> scheduler = new HostScheduler<>(frontier,
      Politeness.of(2, Duration.ofSeconds(10), false, 5, Duration.ofMinutes(1)), () -> 1_000_000_000L,
      HostScheduler.LeaseObserver.NONE);

  private HostScheduler.Lease<CrawlTask> lease(String url) {
    assertTrue(scheduler.offer(FakeChain.page(url)));
    return scheduler.poll();
  }

  @Test
  void theFirstSendCountsTheOriginsDelayAndASecondAttemptOnTheWireDoesNotCountAgain() throws Exception {
    LeaseGate gate = new LeaseGate(scheduler, lease("http://example.test/a"));
    gate.beforeSend();
    // a pooled connection that had dropped: the same request again, not a second one (counted again, it would be
    // refused as coming too soon after the first)
    gate.beforeSend();
    assertEquals(Duration.ZERO, gate.tooSoonBy());
    assertFalse(gate.lapsed());
  }
}

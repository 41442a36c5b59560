package io.sievecrawl.crawler.lease;

import static io.sievecrawl.crawler.lease.FakeChain.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.LastVisit;
import io.sievecrawl.crawler.fetch.Revalidation;
import io.sievecrawl.crawler.report.SkipReason;
import org.junit.jupiter.api.Test;

class FreshGateTest {
  private static CrawlTask revisit(boolean fresh) {
    return new CrawlTask(FakeChain.url("http://example.test/"), 0, null, 0, 0, false,
        new LastVisit(NOW, 200, new Revalidation(null, null, null, NOW), 0, fresh, 0, false), false);
  }

  @Test
  void aUrlFetchedAfterTheCutoffIsSkippedAsFreshWithoutARecord() throws Exception {
    FakeChain chain = FakeChain.of(revisit(true));
    assertEquals(new Outcome.Skipped(SkipReason.FRESH), new FreshGate().handle(chain));
    assertEquals(0, chain.proceeded);
  }

  @Test
  void aUrlDueAgainOrNeverVisitedPasses() throws Exception {
    assertSame(FakeChain.PASSED, new FreshGate().handle(FakeChain.of(revisit(false))));
    assertSame(FakeChain.PASSED, new FreshGate().handle(FakeChain.of(FakeChain.page("http://example.test/"))));
  }
}

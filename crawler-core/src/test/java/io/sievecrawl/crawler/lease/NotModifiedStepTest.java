package io.sievecrawl.crawler.lease;

import static io.sievecrawl.crawler.lease.FakeChain.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.LastVisit;
import io.sievecrawl.crawler.fetch.Revalidation;
import io.sievecrawl.crawler.result.CrawlResult;
import org.junit.jupiter.api.Test;

class NotModifiedStepTest {
  private static final CrawlTask REVISIT = new CrawlTask(FakeChain.url("http://example.test/"), 0, null, 0, 0,
      false, new LastVisit(NOW, 200, new Revalidation("\"v1\"", null, "sha1:AAAA", NOW), 0, false, 0, false), false);

  @Test
  void aRevisitAnswered304IsRecordedAsUnchangedAndNothingAfterRuns() throws Exception {
    FakeChain chain = FakeChain.fetched(REVISIT, FakeChain.response(304, null, ""));
    Outcome outcome = new NotModifiedStep().handle(chain);

    Outcome.Complete done = (Outcome.Complete) outcome;
    assertEquals(CrawlResult.Capture.SERVER_NOT_MODIFIED, done.result().capture().revisit());
    assertEquals(Outcome.FoundLinks.NONE, done.links());
    assertEquals(0, chain.proceeded);
  }

  @Test
  void a304ToAFirstVisitAndA200ToARevisitPassOn() throws Exception {
    assertSame(FakeChain.PASSED, new NotModifiedStep().handle(
        FakeChain.fetched(FakeChain.page("http://example.test/"), FakeChain.response(304, null, ""))));
    assertSame(FakeChain.PASSED, new NotModifiedStep().handle(
        FakeChain.fetched(REVISIT, FakeChain.response(200, "text/html", "<p>new</p>"))));
  }
}

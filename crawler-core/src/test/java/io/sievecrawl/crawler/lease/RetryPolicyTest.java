package io.sievecrawl.crawler.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.CrawlControl;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.report.OriginStats;
import io.sievecrawl.crawler.result.ErrorKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  private final CrawlStats stats = new CrawlStats();
  private final CrawlControl control = new CrawlControl(0, 0, () -> 1L, () -> { });
  private final RetryPolicy policy = new RetryPolicy(CrawlSettings.builder().set(Setting.MAX_RETRIES, 1)
      .set(Setting.RETRY_BACKOFF, Duration.ofSeconds(2)).set(Setting.MAX_RETRY_AFTER, Duration.ofMinutes(1)).build()
      .fetch(), control, stats, new OriginStats());
  private final CrawlTask task = FakeChain.page("http://example.test/");

  private static FetchResponse unavailable(Duration retryAfter) {
    return new FetchResponse(503, "text/html", "utf-8", null, retryAfter, null, false, new byte[0], 0, false,
        FakeChain.NOW, 10, null, null);
  }

  @Test
  void a503IsHandedBackAfterTheBackoffThenRecordedAsRetriesExhausted() throws Exception {
    Outcome first = policy.handle(FakeChain.fetched(task, unavailable(null)));
    Outcome.HandBack again = (Outcome.HandBack) first;
    assertEquals(1, again.next().attempt());
    assertTrue(again.after().compareTo(Duration.ofSeconds(2)) >= 0
        && again.after().compareTo(Duration.ofSeconds(3)) <= 0, "2 s and up to 50% jitter: " + again.after());
    assertEquals(1, stats.retries());

    FakeChain last = FakeChain.fetched(again.next(), unavailable(null));
    assertSame(FakeChain.PASSED, policy.handle(last));
    assertEquals(ErrorKind.RETRIES_EXHAUSTED, last.passedOn.errorKind());
    assertEquals("HTTP 503 after 2 attempts", last.passedOn.error());
  }

  @Test
  void theServersRetryAfterIsWaitedForAndOneTooLongRestsTheOriginWhileTheUrlIsGivenUp() throws Exception {
    Outcome.HandBack again = (Outcome.HandBack) policy.handle(FakeChain.fetched(task, unavailable(
        Duration.ofSeconds(30))));
    assertEquals(Duration.ofSeconds(30), again.after());

    FakeChain tooLong = FakeChain.fetched(task, unavailable(Duration.ofHours(1)));
    assertSame(FakeChain.PASSED, policy.handle(tooLong));
    assertEquals(List.of(new Outcome.Interim.OriginPause(Duration.ofMinutes(1))), tooLong.settled,
        "the rest capped at fetch.max-retry-after");
    assertEquals(ErrorKind.RETRIES_EXHAUSTED, tooLong.passedOn.errorKind());
  }

  @Test
  void aSuccessPassesOnUntouchedAndAStoppingCrawlRetriesNothing() throws Exception {
    FakeChain ok = FakeChain.fetched(task, FakeChain.response(200, "text/html", "<p>"));
    assertSame(FakeChain.PASSED, policy.handle(ok));
    assertNull(ok.passedOn, "passed on as it came");

    control.fail(new java.io.IOException("the results cannot be written"));
    FakeChain stopping = FakeChain.fetched(task, unavailable(null));
    assertSame(FakeChain.PASSED, policy.handle(stopping));
    assertEquals(ErrorKind.RETRIES_EXHAUSTED, stopping.passedOn.errorKind());
    assertEquals(0, stats.retries());
  }
}

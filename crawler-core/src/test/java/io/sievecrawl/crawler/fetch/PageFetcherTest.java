package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PageFetcherTest {

  @Test
  void retryAfterIsReadAsSecondsOrAsAnHttpDate() {
    FakeClock clock = new FakeClock(Instant.parse("2015-10-21T07:27:00Z"));
    assertEquals(Duration.ofSeconds(120), PageFetcher.parseRetryAfter("120", clock));
    assertEquals(Duration.ZERO, PageFetcher.parseRetryAfter("0", clock));
    assertEquals(Duration.ofSeconds(60), PageFetcher.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", clock),
        "a minute from now on the clock");
    clock.advance(Duration.ofMinutes(2));
    assertEquals(Duration.ZERO, PageFetcher.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", clock), "a date past");
    assertNull(PageFetcher.parseRetryAfter("soon", clock));
    assertNull(PageFetcher.parseRetryAfter(null, clock));
  }
}

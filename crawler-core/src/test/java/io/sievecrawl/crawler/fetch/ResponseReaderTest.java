package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ResponseReaderTest {

  @Test
  void retryAfterIsReadAsSecondsOrAsAnHttpDate() {
    FakeClock clock = new FakeClock(Instant.parse("2015-10-21T07:27:00Z"));
    assertEquals(Duration.ofSeconds(120), ResponseReader.parseRetryAfter("120", clock));
    assertEquals(Duration.ZERO, ResponseReader.parseRetryAfter("0", clock));
    assertEquals(Duration.ofSeconds(60), ResponseReader.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", clock),
        "a minute from now on the clock");
    clock.advance(Duration.ofMinutes(2));
    assertEquals(Duration.ZERO, ResponseReader.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", clock), "a date past");
    assertNull(ResponseReader.parseRetryAfter("soon", clock));
    assertNull(ResponseReader.parseRetryAfter(null, clock));
  }
}

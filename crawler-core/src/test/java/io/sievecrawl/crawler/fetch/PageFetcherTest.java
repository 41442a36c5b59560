package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

class PageFetcherTest {

  @Test
  void retryAfterIsReadAsSecondsOrAsAnHttpDate() {
    assertEquals(Duration.ofSeconds(120), PageFetcher.parseRetryAfter("120"));
    assertEquals(Duration.ZERO, PageFetcher.parseRetryAfter("0"));
    String inAMinute = ZonedDateTime.now().plusSeconds(60).format(DateTimeFormatter.RFC_1123_DATE_TIME);
    Duration d = PageFetcher.parseRetryAfter(inAMinute);
    assertTrue(d.getSeconds() > 50 && d.getSeconds() <= 60, d.toString());
    assertEquals(Duration.ZERO, PageFetcher.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT"), "a date past");
    assertNull(PageFetcher.parseRetryAfter("soon"));
    assertNull(PageFetcher.parseRetryAfter(null));
  }
}

package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/** The origin a request goes to is compared with the seeds' as {@code Url.origin()} writes them. */
class RequestHeadersOriginTest {
  @Test
  void anOriginLeavesOutTheDefaultPortAndBracketsAnIpv6Host() {
    assertEquals("http://example.com", RequestHeaders.originOf(HttpUrl.get("http://example.com:80/a")));
    assertEquals("https://example.com", RequestHeaders.originOf(HttpUrl.get("https://example.com/a?b")));
    assertEquals("https://example.com:8443", RequestHeaders.originOf(HttpUrl.get("https://example.com:8443/")));
    assertEquals("http://example.com:443", RequestHeaders.originOf(HttpUrl.get("http://example.com:443/")));
    assertEquals("http://[::1]:8080", RequestHeaders.originOf(HttpUrl.get("http://[::1]:8080/")));
  }
}

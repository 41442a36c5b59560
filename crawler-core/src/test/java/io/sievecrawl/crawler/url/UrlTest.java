package io.sievecrawl.crawler.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.fetch.PrivateAddresses;
import org.junit.jupiter.api.Test;

class UrlTest {
  private final UrlNormalizer normalizer = new UrlNormalizer(2048, true);

  private Url url(String s) throws InvalidUrlException {
    return normalizer.get(s);
  }

  @Test
  void partsOfAnHttpsUrlWithPortAndQuery() throws InvalidUrlException {
    Url url = url("HTTPS://Example.COM:8443/a/./b?c=d/e#f");
    assertEquals("https://example.com:8443/a/b?c=d/e", url.toString());
    assertEquals("https", url.scheme());
    assertTrue(url.isHttps());
    assertEquals("example.com", url.host());
    assertEquals(8443, url.port());
    assertEquals("https://example.com:8443", url.origin());
    assertEquals("/a/b", url.path());
    assertEquals("c=d/e", url.query());
    assertEquals("/a/b?c=d/e", url.pathAndQuery());
  }

  @Test
  void theDefaultPortIsTheEffectivePortButNotPartOfTheOrigin() throws InvalidUrlException {
    Url url = url("http://example.com:80");
    assertEquals(80, url.port());
    assertEquals("http://example.com", url.origin());
    assertEquals("/", url.path());
    assertNull(url.query());
    assertFalse(url.isHttps());
    assertEquals(443, url("https://example.com/").port());
  }

  @Test
  void anIpv6HostKeepsItsBrackets() throws InvalidUrlException {
    Url url = url("http://[::1]:8080/x");
    assertEquals("[::1]", url.host());
    assertEquals(8080, url.port());
    assertEquals("http://[::1]:8080", url.origin());
  }

  @Test
  void urlsAreEqualWhenTheirCanonicalFormsAre() throws InvalidUrlException {
    assertEquals(url("http://example.com/a"), url("HTTP://EXAMPLE.COM:80/a#x"));
    assertEquals(url("http://example.com/a").hashCode(), url("http://example.com:80/a").hashCode());
    assertTrue(url("http://example.com/a").sameOrigin(url("http://example.com/b?c")));
    assertFalse(url("http://example.com/a").sameOrigin(url("https://example.com/a")));
    assertFalse(url("http://example.com/a").sameOrigin(url("http://example.com:8080/a")));
  }

  @Test
  void everyWayBrowsersWriteLoopbackIsOneHostThatScopeSeesAsLocal() throws InvalidUrlException {
    for (String url : new String[] {"http://127.1/", "http://0x7f.1/", "http://2130706433/", "http://0177.0.0.1/",
        "http://[::ffff:127.0.0.1]/", "http://[0:0:0:0:0:0:0:1]/"}) {
      String host = url(url).host();
      assertTrue(PrivateAddresses.isLocalLiteral(host), url + " has host " + host);
    }
    assertEquals("127.0.0.1", url("http://0x7f.1/").host());
  }
}

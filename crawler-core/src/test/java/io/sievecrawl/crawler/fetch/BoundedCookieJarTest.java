package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import okhttp3.Cookie;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

class BoundedCookieJarTest {
  // OkHttp dates a Max-Age from the system clock as it reads the Set-Cookie: the jar's clock starts there too
  private final FakeClock clock = new FakeClock(Instant.now());
  private final BoundedCookieJar jar = new BoundedCookieJar(1_000_000, clock);

  private void set(String url, String... setCookies) {
    HttpUrl from = HttpUrl.get(url);
    List<Cookie> cookies = new ArrayList<>();
    for (String header : setCookies) {
      Cookie cookie = Cookie.parse(from, header);
      if (cookie != null) { // as OkHttp's bridge does: a cookie it cannot accept never reaches the jar
        cookies.add(cookie);
      }
    }
    jar.saveFromResponse(from, cookies);
  }

  private String sent(String url) {
    List<Cookie> cookies = jar.loadForRequest(HttpUrl.get(url));
    return String.join("; ", cookies.stream().map(c -> c.name() + "=" + c.value()).toList());
  }

  @Test
  void aHostOnlyCookieGoesBackToItsHostAlone() {
    set("https://example.com/a", "id=1");
    assertEquals("id=1", sent("https://example.com/b"));
    assertEquals("id=1", sent("http://example.com:8080/"), "cookies do not keep to a port or a scheme");
    assertEquals("", sent("https://www.example.com/"));
    assertEquals("", sent("https://example.org/"));
  }

  @Test
  void aDomainCookieGoesToEveryHostUnderIt() {
    set("https://www.example.com/", "lang=en; Domain=example.com");
    assertEquals("lang=en", sent("https://example.com/"));
    assertEquals("lang=en", sent("https://a.b.example.com/"));
    assertEquals("", sent("https://notexample.com/"));
    assertEquals("", sent("https://example.org/"));
  }

  @Test
  void aCookieForAnotherSiteOrAPublicSuffixIsNeverKept() {
    set("https://www.example.co.uk/", "a=1; Domain=co.uk", "b=2; Domain=other.co.uk", "c=3; Domain=www.example.co.uk");
    assertEquals(1, jar.size(), "only the one for the host itself");
    assertEquals("", sent("https://other.co.uk/"));
    assertEquals("c=3", sent("https://www.example.co.uk/"));
  }

  @Test
  void pathAndSecureDecideWhichRequestsCarryACookie() {
    set("https://example.com/", "cart=9; Path=/shop", "s=1; Secure", "all=1; Path=/");
    assertEquals("cart=9; s=1; all=1", sent("https://example.com/shop/item"), "the longer path first");
    assertEquals("cart=9; all=1", sent("http://example.com/shop/item"), "Secure keeps s off plain http");
    assertEquals("s=1; all=1", sent("https://example.com/shopping"), "/shop covers /shop/..., not /shopping");
  }

  @Test
  void aCookieSetAgainReplacesTheOldAndOneSetExpiredDeletesIt() {
    set("https://example.com/", "id=1", "theme=dark");
    set("https://example.com/", "id=2");
    assertEquals("theme=dark; id=2", sent("https://example.com/"));
    set("https://example.com/", "theme=x; Max-Age=0");
    assertEquals("id=2", sent("https://example.com/"));
    assertEquals(1, jar.size());
  }

  @Test
  void aCookieIsSentUntilTheJarsClockPassesItsExpiry() {
    Instant inAnHour = clock.instant().plus(Duration.ofHours(1));
    String expires = DateTimeFormatter.RFC_1123_DATE_TIME.format(inAnHour.atZone(ZoneOffset.UTC));
    set("https://example.com/", "dated=1; Expires=" + expires, "aged=1; Max-Age=7200", "session=1");
    assertEquals("dated=1; aged=1; session=1", sent("https://example.com/"));
    clock.advance(Duration.ofMinutes(59));
    assertEquals("dated=1; aged=1; session=1", sent("https://example.com/"), "a minute before the Expires date");
    clock.advance(Duration.ofMinutes(2));
    assertEquals("aged=1; session=1", sent("https://example.com/"), "a minute past the Expires date");
    assertEquals(2, jar.snapshot().size());
    clock.advance(Duration.ofMinutes(58));
    assertEquals("aged=1; session=1", sent("https://example.com/"), "a minute before the Max-Age runs out");
    clock.advance(Duration.ofMinutes(2));
    assertEquals("session=1", sent("https://example.com/"), "a minute after");
    assertEquals(BoundedCookieJar.size(jar.snapshot().get(0)), jar.estimatedBytes(),
        "an expired cookie is dropped when met");
  }

  @Test
  void aDomainKeepsItsNewestFiftyCookiesAndAnOversizeOneIsRefused() {
    for (int i = 0; i < BoundedCookieJar.MAX_PER_DOMAIN + 5; i++) {
      set("https://example.com/", "c" + i + "=" + i);
    }
    assertEquals(BoundedCookieJar.MAX_PER_DOMAIN, jar.size());
    assertTrue(sent("https://example.com/").startsWith("c5=5; c6=6;"), "the five oldest went");
    set("https://example.org/", "big=" + "x".repeat(BoundedCookieJar.MAX_COOKIE_SIZE));
    assertEquals("", sent("https://example.org/"));
  }

  @Test
  void pastItsMemoryTheJarDropsTheLeastRecentlyUsedDomains() {
    BoundedCookieJar small = new BoundedCookieJar(20_000, clock);
    HttpUrl kept = HttpUrl.get("https://kept.example/");
    small.saveFromResponse(kept, List.of(Cookie.parse(kept, "k=1")));
    for (int i = 0; i < 1_000; i++) {
      HttpUrl url = HttpUrl.get("https://host" + i + ".example/");
      small.saveFromResponse(url, List.of(Cookie.parse(url, "id=" + "v".repeat(100))));
      small.loadForRequest(kept); // in use all along, so never the least recently used
    }
    assertTrue(small.size() < 100, small.size() + " cookies kept");
    assertEquals(1, small.loadForRequest(kept).size());
    assertEquals(0, small.loadForRequest(HttpUrl.get("https://host0.example/")).size());
    assertEquals(1, small.loadForRequest(HttpUrl.get("https://host999.example/")).size());
  }

  @Test
  void anIpAddressHostGetsItsOwnCookiesOnly() {
    set("http://127.0.0.1:8080/", "id=1");
    set("http://[::1]:8080/", "id=6");
    assertEquals("id=1", sent("http://127.0.0.1/"));
    assertEquals("id=6", sent("http://[::1]/"));
    assertEquals("", sent("http://127.0.0.2/"));
    assertNull(Cookie.parse(HttpUrl.get("http://127.0.0.1/"), "x=1; Domain=0.0.1"),
        "an address has no domain above it");
  }

  @Test
  void workersSavingAndLoadingAtOnceKeepTheJarWithinItsBounds() throws InterruptedException {
    BoundedCookieJar shared = new BoundedCookieJar(50_000, clock);
    int threads = 8;
    CountDownLatch start = new CountDownLatch(1);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      workers.add(Thread.ofPlatform().start(() -> {
        try {
          start.await();
          for (int i = 0; i < 5_000; i++) {
            HttpUrl url = HttpUrl.get("https://h" + (i % 300) + ".example/");
            shared.saveFromResponse(url, List.of(Cookie.parse(url, "w" + id + "=" + i)));
            shared.loadForRequest(url);
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      }));
    }
    start.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    assertEquals(List.of(), List.copyOf(failures));
    long recounted = shared.snapshot().stream().mapToLong(BoundedCookieJar::size).sum();
    assertEquals(recounted, shared.estimatedBytes(), "the running total matches the cookies kept");
    assertTrue(recounted <= 50_000 && recounted > 40_000, recounted + " bytes");
  }
}

package io.sievecrawl.crawler.fetch;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okhttp3.Cookie;
import okhttp3.CookieJar;
import okhttp3.HttpUrl;

/**
 * The crawl's cookies, kept in memory and sent back as a browser would, so a site that sets a cookie on one page and
 * expects it on the next (a session, a consent or a language choice) is crawled as its visitors see it.
 *
 * <p>OkHttp parses each Set-Cookie (RFC 6265: a Domain attribute must cover the host and may not be a public
 * suffix, Max-Age and Expires, Path, Secure) and decides which cookies a request carries; this jar only keeps them.
 * A cookie set again under its name, domain and path replaces the old one, and one set already expired deletes it.
 * Whether a cookie has expired is judged on the jar's clock (the crawl's wall clock); OkHttp dates a Max-Age from the
 * system clock as it parses the Set-Cookie.
 *
 * <p>Bounded, since a crawl may visit millions of hosts: at most {@value #MAX_PER_DOMAIN} cookies per domain (the
 * oldest go first) and about {@code maxBytes} in all, the least recently used domain's cookies dropped past it; a
 * cookie whose name and value exceed {@value #MAX_COOKIE_SIZE} bytes is refused. These are RFC 6265 section 6.1's
 * least limits for a browser.
 *
 * <p>Thread-safe: every worker's requests go through one jar; each call holds its lock for a few map operations.
 */
public final class BoundedCookieJar implements CookieJar {
  static final int MAX_PER_DOMAIN = 50;
  static final int MAX_COOKIE_SIZE = 4096;
  /** An estimate of a cookie's heap beyond its text: the Cookie object, its strings' headers, the list slot. */
  private static final int OVERHEAD_BYTES = 200;
  private static final Comparator<Cookie> LONGER_PATH_FIRST =
      Comparator.comparingInt((Cookie c) -> c.path().length()).reversed();

  private final long maxBytes;
  private final Clock clock;
  // Keyed by the cookie's domain (the host itself for a host-only cookie), in least recently used order.
  private final LinkedHashMap<String, List<Cookie>> byDomain = new LinkedHashMap<>(256, 0.75f, true); // guarded by this
  private long bytes; // guarded by this

  /** A jar holding about {@code maxBytes} of cookies at most, with expiry judged by {@code clock}. */
  public BoundedCookieJar(long maxBytes, Clock clock) {
    if (maxBytes < MAX_COOKIE_SIZE) {
      throw new IllegalArgumentException("maxBytes (" + maxBytes + ") must be at least " + MAX_COOKIE_SIZE);
    }
    this.maxBytes = maxBytes;
    this.clock = clock;
  }

  @Override
  public void saveFromResponse(HttpUrl url, List<Cookie> cookies) {
    keep(cookies);
  }

  /** Keeps {@code cookies}, as if a response had set them (a resumed crawl's, from its crawl directory). */
  public synchronized void keep(List<Cookie> cookies) {
    long now = clock.millis();
    for (Cookie cookie : cookies) {
      if (cookie.name().length() + cookie.value().length() > MAX_COOKIE_SIZE) {
        continue;
      }
      List<Cookie> kept = byDomain.computeIfAbsent(cookie.domain(), d -> new ArrayList<>(2));
      for (Iterator<Cookie> it = kept.iterator(); it.hasNext(); ) {
        Cookie old = it.next();
        if (old.name().equals(cookie.name()) && old.path().equals(cookie.path())) {
          it.remove();
          bytes -= size(old);
        }
      }
      if (cookie.expiresAt() > now) {
        if (kept.size() == MAX_PER_DOMAIN) {
          bytes -= size(kept.remove(0));
        }
        kept.add(cookie);
        bytes += size(cookie);
      }
      if (kept.isEmpty()) {
        byDomain.remove(cookie.domain());
      }
    }
    dropLeastRecentlyUsed();
  }

  @Override
  public synchronized List<Cookie> loadForRequest(HttpUrl url) {
    long now = clock.millis();
    List<Cookie> matching = List.of();
    String host = url.host();
    // the host and every domain above it: a cookie for example.com also goes to www.example.com
    for (int from = 0; from >= 0; from = nextLabel(host, from)) {
      List<Cookie> kept = byDomain.get(host.substring(from));
      if (kept == null) {
        continue;
      }
      for (Iterator<Cookie> it = kept.iterator(); it.hasNext(); ) {
        Cookie cookie = it.next();
        if (cookie.expiresAt() <= now) {
          it.remove();
          bytes -= size(cookie);
        } else if (cookie.matches(url)) {
          if (matching.isEmpty()) {
            matching = new ArrayList<>(4);
          }
          matching.add(cookie);
        }
      }
      if (kept.isEmpty()) {
        byDomain.remove(host.substring(from));
      }
    }
    if (matching.size() > 1) {
      matching.sort(LONGER_PATH_FIRST); // RFC 6265 5.4: cookies with longer paths are listed first
    }
    return matching;
  }

  /** The cookies kept that have not expired, the least recently used domains' first. */
  public synchronized List<Cookie> snapshot() {
    long now = clock.millis();
    List<Cookie> live = new ArrayList<>();
    for (List<Cookie> kept : byDomain.values()) {
      for (Cookie cookie : kept) {
        if (cookie.expiresAt() > now) {
          live.add(cookie);
        }
      }
    }
    return live;
  }

  /** The number of cookies kept that have not expired. */
  int size() {
    return snapshot().size();
  }

  /** The heap the cookies kept are estimated to take: the sum of {@link #size(Cookie)}. */
  synchronized long estimatedBytes() {
    return bytes;
  }

  /** Where the domain above {@code host}'s label at {@code from} starts, or -1 (an IP address has none). */
  private static int nextLabel(String host, int from) {
    if (from == 0 && (host.indexOf(':') >= 0 || Character.isDigit(host.charAt(host.length() - 1)))) {
      return -1; // an IPv6 or IPv4 address: cookies are only ever host-only there
    }
    int dot = host.indexOf('.', from);
    return dot < 0 ? -1 : dot + 1;
  }

  private void dropLeastRecentlyUsed() {
    for (Iterator<Map.Entry<String, List<Cookie>>> it = byDomain.entrySet().iterator();
        bytes > maxBytes && it.hasNext(); ) {
      for (Cookie cookie : it.next().getValue()) {
        bytes -= size(cookie);
      }
      it.remove();
    }
  }

  static long size(Cookie cookie) {
    return 2L * (cookie.name().length() + cookie.value().length() + cookie.domain().length() + cookie.path().length())
        + OVERHEAD_BYTES;
  }
}

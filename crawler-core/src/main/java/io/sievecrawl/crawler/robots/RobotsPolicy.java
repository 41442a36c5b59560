package io.sievecrawl.crawler.robots;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import io.sievecrawl.crawler.fetch.CallTracker;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okio.BufferedSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * robots.txt per RFC 9309, parsed by crawler-commons and cached per origin (scheme, host, port).
 *
 * <p>2xx: the rules apply (the first 500 KiB are read, as the RFC requires at least). 4xx other than 429: no rules,
 * everything allowed. 429, 5xx or a network error: the origin is disallowed until {@code retryAfter} has passed,
 * then robots.txt is fetched again; after {@value #MAX_FAILURES} failed attempts in a row the origin is given
 * up. Up to {@value #MAX_REDIRECTS} redirects are followed. The cache keeps the most recently used origins' rules
 * within {@code cacheBytes}, each weighed at {@value #BYTES_PER_ROBOTS_BYTE} times its robots.txt's size plus
 * {@value #ENTRY_BYTES} (a parsed 500 KB robots.txt takes about 2 MB); concurrent lookups of an origin share one
 * fetch.
 */
public final class RobotsPolicy {
  static final int MAX_FAILURES = 3;
  static final int MAX_REDIRECTS = 5;
  private static final int MAX_ROBOTS_BYTES = 500 * 1024;
  static final int BYTES_PER_ROBOTS_BYTE = 4;
  static final int ENTRY_BYTES = 512;
  private static final Logger log = LoggerFactory.getLogger(RobotsPolicy.class);

  private final OkHttpClient client;
  private final CallTracker calls;
  private final String userAgent;
  private final List<String> robotNames;
  private final Duration maxCrawlDelay;
  private final Duration retryAfter;
  private final Clock clock;
  private final long cacheBytes;
  private final LinkedHashMap<String, CacheEntry> cache = new LinkedHashMap<>(256, 0.75f, true); // guarded by itself
  private long cachedBytes; // guarded by cache

  /** A cached state of one origin's robots.txt. */
  private static final class CacheEntry {
    final CompletableFuture<BaseRobotRules> rules; // completes with null when the fetch failed
    final int failures;
    final Instant retryAt;
    long weight = ENTRY_BYTES; // set once the rules are known; guarded by cache

    CacheEntry(CompletableFuture<BaseRobotRules> rules, int failures, Instant retryAt) {
      this.rules = rules;
      this.failures = failures;
      this.retryAt = retryAt;
    }
  }

  /**
   * @param calls where robots.txt calls are tracked, so that a stop can cancel them
   * @param cacheBytes memory for cached rules, estimated as described above
   */
  public RobotsPolicy(OkHttpClient client, CallTracker calls, String userAgent, Duration maxCrawlDelay,
      Duration retryAfter, long cacheBytes, Clock clock) {
    this.client = client.newBuilder().followRedirects(false).followSslRedirects(false).build();
    this.calls = calls;
    this.userAgent = userAgent;
    this.robotNames = List.of(robotName(userAgent));
    this.maxCrawlDelay = maxCrawlDelay;
    this.retryAfter = retryAfter;
    this.cacheBytes = cacheBytes;
    this.clock = clock;
  }

  /** Puts {@code entry} in the cache and drops the least recently used entries past the memory bound. */
  private void cachePut(String origin, CacheEntry entry) { // caller holds cache
    CacheEntry old = cache.put(origin, entry);
    if (old != null) {
      cachedBytes -= old.weight;
    }
    cachedBytes += entry.weight;
    Iterator<Map.Entry<String, CacheEntry>> eldest = cache.entrySet().iterator();
    while (cachedBytes > cacheBytes && cache.size() > 1 && eldest.hasNext()) {
      Map.Entry<String, CacheEntry> e = eldest.next();
      if (e.getValue() == entry) {
        continue;
      }
      cachedBytes -= e.getValue().weight;
      eldest.remove();
    }
  }

  /** Bytes the cached rules are estimated to take; for tests. */
  long cachedBytes() {
    synchronized (cache) {
      return cachedBytes;
    }
  }

  /** The name robots.txt groups are matched against: the User-Agent's first product token, lower case. */
  public static String robotName(String userAgent) {
    String token = userAgent.trim().split("[/\\s]", 2)[0];
    return token.toLowerCase(Locale.ROOT);
  }

  /**
   * The verdict for {@code url}, a normalized http(s) URL (its path starts with a slash); may block while the
   * origin's robots.txt is fetched.
   */
  public RobotsVerdict check(String url) throws InterruptedException {
    String origin = url.substring(0, url.indexOf('/', url.indexOf("://") + 3)); // scheme://host[:port]
    CacheEntry entry;
    boolean fetchHere = false;
    Instant now = clock.instant();
    synchronized (cache) {
      entry = cache.get(origin);
      if (entry == null || (entry.retryAt != null && !now.isBefore(entry.retryAt) && entry.failures < MAX_FAILURES)) {
        int failures = entry == null ? 0 : entry.failures;
        entry = new CacheEntry(new CompletableFuture<>(), failures, null);
        cachePut(origin, entry);
        fetchHere = true;
      }
    }
    if (fetchHere) {
      fetchInto(origin, url, entry);
    }
    BaseRobotRules rules;
    try {
      rules = entry.rules.get();
    } catch (java.util.concurrent.ExecutionException e) {
      rules = null;
    }
    synchronized (cache) {
      entry = cache.getOrDefault(origin, entry);
    }
    if (rules == null) {
      if (entry.failures >= MAX_FAILURES) {
        return new RobotsVerdict(RobotsVerdict.Decision.UNAVAILABLE, Duration.ZERO, null);
      }
      Instant retryAt = entry.retryAt != null ? entry.retryAt : clock.instant().plus(retryAfter);
      return new RobotsVerdict(RobotsVerdict.Decision.RETRY_LATER, Duration.ZERO, retryAt);
    }
    Duration delay = crawlDelay(rules);
    return rules.isAllowed(url) ? RobotsVerdict.allowed(delay) : RobotsVerdict.disallowed(delay);
  }

  private Duration crawlDelay(BaseRobotRules rules) {
    long ms = rules.getCrawlDelay();
    if (ms == BaseRobotRules.UNSET_CRAWL_DELAY || ms <= 0) {
      return Duration.ZERO;
    }
    Duration d = Duration.ofMillis(ms);
    return d.compareTo(maxCrawlDelay) > 0 ? maxCrawlDelay : d;
  }

  /** Fetches the origin's robots.txt and completes {@code pending}, whatever happens (waiters must never hang). */
  private void fetchInto(String origin, String url, CacheEntry pending) {
    BaseRobotRules rules = null;
    long[] size = {0};
    try {
      rules = fetch(HttpUrl.get(url).newBuilder().encodedPath("/robots.txt").query(null).fragment(null).build(),
          size);
    } catch (IOException | RuntimeException e) {
      log.info("robots.txt of {} unreachable: {}", origin, e.toString());
    } finally {
      if (rules != null) {
        synchronized (cache) {
          if (cache.get(origin) == pending) {
            cache.remove(origin);
            cachedBytes -= pending.weight;
            pending.weight = ENTRY_BYTES + BYTES_PER_ROBOTS_BYTE * size[0];
            cachePut(origin, pending);
          }
        }
      } else {
        int failures = pending.failures + 1;
        Instant retryAt = clock.instant().plus(retryAfter);
        synchronized (cache) {
          cachePut(origin, new CacheEntry(pending.rules, failures, retryAt));
        }
        if (failures >= MAX_FAILURES) {
          log.warn("robots.txt of {} unreachable {} times in a row; skipping that host's URLs", origin, failures);
        }
      }
      pending.rules.complete(rules);
    }
  }

  /**
   * The rules, or {@code null} when robots.txt is unreachable for now (429, 5xx, network error); {@code size[0]}
   * receives the bytes parsed.
   */
  private BaseRobotRules fetch(HttpUrl robotsUrl, long[] size) throws IOException {
    SimpleRobotRulesParser parser = new SimpleRobotRulesParser();
    parser.setMaxCrawlDelay(Long.MAX_VALUE);
    HttpUrl current = robotsUrl;
    for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
      Request request = new Request.Builder().url(current).header("User-Agent", userAgent).build();
      Call call = client.newCall(request);
      CallTracker.Tracked tracked = calls.track(call);
      try (Response response = call.execute()) {
        int code = response.code();
        if (code >= 300 && code < 400 && response.header("Location") != null) {
          HttpUrl next = current.resolve(response.header("Location"));
          if (next == null) {
            return allowAll();
          }
          current = next;
          continue;
        }
        if (code >= 200 && code < 300) {
          BufferedSource source = response.body().source();
          source.request(MAX_ROBOTS_BYTES);
          byte[] content = source.getBuffer().readByteArray(Math.min(source.getBuffer().size(), MAX_ROBOTS_BYTES));
          String contentType = response.header("Content-Type", "text/plain");
          size[0] = content.length;
          return parser.parseContent(current.toString(), content, contentType, robotNames);
        }
        if (code == 429 || code >= 500) {
          log.info("robots.txt at {} answered {}; retrying in {}", current, code, retryAfter);
          return null;
        }
        return allowAll(); // 4xx, and anything else unexpected: "unavailable" means no restrictions
      } finally {
        tracked.close();
      }
    }
    return allowAll(); // more than five redirects: RFC 9309 treats it as unavailable
  }

  private static BaseRobotRules allowAll() {
    return new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL);
  }
}

package io.sievecrawl.crawler.robots;

import crawlercommons.robots.BaseRobotRules;
import io.sievecrawl.crawler.fetch.CallTracker;
import io.sievecrawl.crawler.fetch.ConnectionPools;
import io.sievecrawl.crawler.url.Url;
import java.net.MalformedURLException;
import java.net.URL;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * robots.txt per RFC 9309, parsed by crawler-commons, fetched in the background and cached per origin (scheme,
 * host, port).
 *
 * <p>{@link #verdict} never waits for the network: while an origin's robots.txt is being fetched it answers
 * {@link RobotsVerdict.Decision#PENDING} and runs the caller's callback when the fetch ends, so a worker never sits
 * on a slow robots.txt while other origins have work. A 429, a 5xx or a transient network error makes the origin
 * {@code RETRY_LATER} for {@code retryAfter}, then robots.txt is fetched again; after {@value #MAX_FAILURES} such
 * failures in a row, or at once for a refused connection, an unknown host or an untrusted certificate (waiting does
 * not fix those), the origin is given up: {@code UNAVAILABLE}. Each pause and give-up is one WARN naming the origin
 * and the reason.
 *
 * <p>The cache keeps the most recently used origins' rules within {@code cacheBytes}, each weighed at
 * {@value #BYTES_PER_ROBOTS_BYTE} times its robots.txt's size plus {@value #ENTRY_BYTES} (a parsed 500 KB
 * robots.txt takes about 2 MB); an evicted origin's robots.txt is fetched again when needed. Origins given up are
 * remembered apart (the first {@value #MAX_GIVEN_UP} with their reasons, for the summary).
 *
 * <p>The sitemaps a robots.txt lists come with the first verdict given after each fetch of it, for the caller to
 * offer to the frontier (which drops those it has seen, after an evicted origin's robots.txt is fetched again).
 *
 * <p>Rules are used for {@link #LIFETIME} after their fetch, RFC 9309's most, then fetched again in the background
 * while the old ones still answer; while robots.txt cannot be had then, the old ones go on answering (RFC 9309 2.4)
 * and it is tried again every {@code retryAfter}. A {@link RobotsStore} keeps them with the crawl: an origin not in
 * memory is looked up there before robots.txt is fetched, and rules fetched are kept there, so a resumed crawl, or
 * an agent that takes an origin over, does not fetch robots.txt again until it expires.
 */
public final class RobotsPolicy implements AutoCloseable {
  static final int MAX_FAILURES = 3;
  static final int BYTES_PER_ROBOTS_BYTE = 4;
  static final int ENTRY_BYTES = 512;
  static final int MAX_GIVEN_UP = 10_000;
  /** How long fetched rules are used: RFC 9309 2.4 (crawlers SHOULD NOT use a cached robots.txt for longer). */
  public static final Duration LIFETIME = Duration.ofHours(24);
  private static final int MAX_PARALLEL_FETCHES = 64;
  private static final Logger log = LoggerFactory.getLogger(RobotsPolicy.class);

  private final RobotsFetcher fetcher;
  private final Duration maxCrawlDelay;
  private final Duration retryAfter;
  private final Clock clock;
  private final long cacheBytes;
  private final RobotsStore store;
  private final ExecutorService background = Executors.newVirtualThreadPerTaskExecutor();
  private final Semaphore fetchSlots = new Semaphore(MAX_PARALLEL_FETCHES);
  private final Object lock = new Object();
  private final LinkedHashMap<String, Entry> cache = new LinkedHashMap<>(256, 0.75f, true); // guarded by lock
  private final LinkedHashMap<String, GivenUp> givenUp = new LinkedHashMap<>(); // guarded by lock
  private long cachedBytes; // guarded by lock
  private volatile long givenUpCount; // written under lock
  private volatile boolean stopping;

  /** Why an origin was given up, and whether its server could not be reached at all. */
  private record GivenUp(String reason, boolean unreachable) {}

  /** One origin's robots.txt state; guarded by {@code lock}. */
  private static final class Entry {
    BaseRobotRules rules; // known rules, or null
    Instant expires; // when the known rules are to be fetched again
    List<String> sitemaps = List.of(); // listed by the last robots.txt fetched and not yet handed out
    boolean fetching;
    int failures;
    Instant retryAt; // after a failure: when to fetch again
    long weight = ENTRY_BYTES;
    List<Runnable> waiters = new ArrayList<>();
  }

  /**
   * @param calls where robots.txt calls are tracked, so that a stop can cancel them
   * @param robotName the product token matched against robots.txt groups
   * @param cacheBytes memory for cached rules, estimated as described above
   */
  public RobotsPolicy(ConnectionPools clients, CallTracker calls, String userAgent, String robotName,
      Duration maxCrawlDelay, Duration retryAfter, long cacheBytes, Clock clock) {
    this(clients, origin -> false, calls, userAgent, robotName, maxCrawlDelay, retryAfter, cacheBytes, clock,
        RobotsStore.NONE);
  }

  /**
   * As {@link #RobotsPolicy(ConnectionPools, CallTracker, String, String, Duration, Duration, long, Clock)}, asking
   * the origins {@code bare} names (those only requisites lead to, outside the crawl's scope) without the user's extra
   * headers and cookies, and keeping rules in {@code store} beyond this process's memory.
   */
  public RobotsPolicy(ConnectionPools clients, java.util.function.Predicate<String> bare, CallTracker calls,
      String userAgent, String robotName, Duration maxCrawlDelay, Duration retryAfter, long cacheBytes, Clock clock,
      RobotsStore store) {
    this.fetcher = new RobotsFetcher(clients, bare, calls, userAgent, robotName.toLowerCase(Locale.ROOT));
    this.maxCrawlDelay = maxCrawlDelay;
    this.retryAfter = retryAfter;
    this.cacheBytes = cacheBytes;
    this.clock = clock;
    this.store = store;
  }

  /**
   * The verdict for {@code url} without waiting. When it is {@code PENDING}, or when it starts the fetch of expired
   * rules, {@code whenSettled} runs (on a background thread) once the origin's robots.txt fetch has ended.
   */
  public RobotsVerdict verdict(Url url, Runnable whenSettled) {
    String origin = url.origin();
    boolean startFetch = false;
    RobotsVerdict verdict;
    synchronized (lock) {
      GivenUp gone = givenUp.get(origin);
      if (gone != null) {
        return RobotsVerdict.unavailable(gone.reason(), gone.unreachable());
      }
      Entry e = cache.get(origin);
      if (e == null) {
        e = new Entry();
        put(origin, e);
      }
      if (e.rules != null) {
        if (!e.fetching && !clock.instant().isBefore(e.expires)) {
          e.fetching = true; // expired: fetched again in the background, the old rules answering meanwhile
          e.waiters.add(whenSettled);
          Entry entry = e;
          background.execute(() -> fetchAndSettle(origin, entry));
        }
        Duration delay = crawlDelay(e.rules);
        List<String> sitemaps = e.sitemaps;
        e.sitemaps = List.of();
        return e.rules.isAllowed(javaUrlOf(url)) ? RobotsVerdict.allowed(delay, sitemaps)
            : RobotsVerdict.disallowed(delay, sitemaps);
      }
      if (!e.fetching && e.retryAt != null && clock.instant().isBefore(e.retryAt)) {
        return RobotsVerdict.retryLater(e.retryAt);
      }
      if (!e.fetching) {
        e.fetching = true;
        startFetch = true;
      }
      e.waiters.add(whenSettled);
      verdict = RobotsVerdict.pending();
      if (startFetch) {
        Entry entry = e;
        background.execute(() -> fetchAndSettle(origin, entry));
      }
    }
    return verdict;
  }

  /**
   * {@code url} as crawler-commons' rules read it (they match its path and query), made from its parts: a canonical
   * URL needs no parsing again.
   */
  @SuppressWarnings("deprecation") // the constructor from parts, which parses nothing; URI.toURL would parse it all
  private static URL javaUrlOf(Url url) {
    try {
      return new URL(url.scheme(), url.host(), url.port(), url.pathAndQuery());
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(url.toString(), e); // http and https always have a handler
    }
  }

  /** Whether a verdict for {@code url}'s origin would not be {@code PENDING} now. */
  public boolean isSettled(Url url) {
    String origin = url.origin();
    synchronized (lock) {
      Entry e = cache.get(origin);
      return givenUp.containsKey(origin) || e == null || !e.fetching;
    }
  }

  /** How many times an origin was given up: each origin once, unless it was evicted and met again. */
  public long givenUpCount() {
    return givenUpCount;
  }

  /** The origins given up on, with why (the first {@value #MAX_GIVEN_UP}). */
  public Map<String, String> givenUp() {
    synchronized (lock) {
      Map<String, String> reasons = new LinkedHashMap<>();
      givenUp.forEach((origin, gone) -> reasons.put(origin, gone.reason()));
      return Collections.unmodifiableMap(reasons);
    }
  }

  private void fetchAndSettle(String origin, Entry e) {
    boolean known;
    synchronized (lock) {
      known = e.rules != null;
    }
    RobotsFetcher.Outcome outcome = known ? null : kept(origin);
    boolean fetched = outcome == null;
    Instant expires = fetched ? null : outcome.expires();
    if (fetched) {
      try {
        fetchSlots.acquire();
        try {
          outcome = fetcher.fetch(origin);
        } finally {
          fetchSlots.release();
        }
      } catch (InterruptedException interrupted) {
        outcome = RobotsFetcher.Outcome.failed("interrupted", false, false);
      }
      expires = clock.instant().plus(LIFETIME);
    }
    List<Runnable> waiters;
    synchronized (lock) {
      e.fetching = false;
      if (stopping && outcome.rules() == null) {
        // cut off by the crawl's stop: no failure of the origin's; a resumed crawl fetches robots.txt again
      } else if (outcome.rules() != null) {
        e.rules = outcome.rules();
        e.expires = expires;
        e.sitemaps = List.copyOf(outcome.rules().getSitemaps());
        e.failures = 0;
        e.retryAt = null;
        if (cache.get(origin) == e) {
          cache.remove(origin);
          cachedBytes -= e.weight;
          e.weight = ENTRY_BYTES + BYTES_PER_ROBOTS_BYTE * outcome.bytes();
          put(origin, e);
        }
      } else if (e.rules != null) {
        e.expires = clock.instant().plus(retryAfter); // the old rules go on answering while robots.txt cannot be had
      } else {
        e.failures++;
        if (outcome.permanent() || e.failures >= MAX_FAILURES) {
          giveUp(origin, new GivenUp(outcome.permanent() ? outcome.failure()
              : "robots.txt failed " + e.failures + " times in a row (" + outcome.failure() + ")",
              outcome.unreachable()));
        } else {
          e.retryAt = clock.instant().plus(retryAfter);
          log.warn("pausing {} for {}: {} (attempt {} of {})", origin,
              io.sievecrawl.config.Values.formatDuration(retryAfter), outcome.failure(), e.failures, MAX_FAILURES);
        }
      }
      waiters = e.waiters;
      e.waiters = new ArrayList<>();
    }
    if (fetched && outcome.rules() != null) { // kept before the origin goes on: whoever takes it next finds them
      keep(origin, new RobotsStore.Kept(expires, RobotsRules.encode(outcome.rules())));
    }
    waiters.forEach(Runnable::run);
  }

  /** The rules the store keeps for {@code origin}, unexpired, as an outcome; {@code null} when it keeps none. */
  private RobotsFetcher.Outcome kept(String origin) {
    try {
      RobotsStore.Kept kept = store.load(origin);
      BaseRobotRules rules = kept == null || !clock.instant().isBefore(kept.expires()) ? null
          : RobotsRules.decode(kept.rules());
      return rules == null ? null : RobotsFetcher.Outcome.kept(rules, kept.rules().length, kept.expires());
    } catch (RuntimeException failure) { // a store that cannot answer: robots.txt is fetched
      log.debug("robots.txt rules of {} not read from the crawl's store: {}", origin, failure.toString());
      return null;
    }
  }

  private void keep(String origin, RobotsStore.Kept kept) {
    try {
      store.save(origin, kept);
    } catch (RuntimeException failure) {
      log.debug("robots.txt rules of {} not kept in the crawl's store: {}", origin, failure.toString());
    }
  }

  private void giveUp(String origin, GivenUp gone) { // caller holds lock
    givenUpCount++;
    if (givenUp.size() < MAX_GIVEN_UP) {
      givenUp.put(origin, gone);
    }
    Entry e = cache.remove(origin);
    if (e != null) {
      cachedBytes -= e.weight;
    }
    log.warn("giving up {}: {}; its URLs are recorded as not fetched", origin, gone.reason());
  }

  /** Puts {@code entry} in the cache and drops the least recently used entries past the memory bound. */
  private void put(String origin, Entry entry) { // caller holds lock
    cache.put(origin, entry);
    cachedBytes += entry.weight;
    Iterator<Map.Entry<String, Entry>> eldest = cache.entrySet().iterator();
    while (cachedBytes > cacheBytes && cache.size() > 1 && eldest.hasNext()) {
      Map.Entry<String, Entry> e = eldest.next();
      if (e.getValue() != entry && !e.getValue().fetching) {
        cachedBytes -= e.getValue().weight;
        eldest.remove();
      }
    }
  }

  /** Bytes the cached rules are estimated to take; for tests. */
  long cachedBytes() {
    synchronized (lock) {
      return cachedBytes;
    }
  }

  private Duration crawlDelay(BaseRobotRules rules) {
    long ms = rules.getCrawlDelay();
    if (ms == BaseRobotRules.UNSET_CRAWL_DELAY || ms <= 0) {
      return Duration.ZERO;
    }
    Duration d = Duration.ofMillis(ms);
    return d.compareTo(maxCrawlDelay) > 0 ? maxCrawlDelay : d;
  }

  /** Stops the background fetches (a stop has cancelled their calls already). */
  @Override
  public void close() {
    stopping = true;
    background.shutdownNow();
  }

  /**
   * The crawl stops: robots.txt fetches cut off from now on are not failures of their origins (no pause, no
   * give-up, no warning).
   */
  public void stopping() {
    stopping = true;
  }
}

package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.Frontiers;
import io.sievecrawl.sieve.TaskCodec;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.testing.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The shared frontier while Redis restarts or drops replies: it waits, goes on, and loses or repeats no task; it
 * gives up past the grace period, and at once when Redis comes back without the crawl. The outages are real (a
 * server stopped, connections cut); the agent beats when the test says ({@link RedisFrontier#heartbeat}), on a clock
 * the test moves, and its leases expire when the test expires them, as Redis would at their TTL.
 */
class RedisOutageIT {
  /** Longer than any test: on Redis's clock a lease expires only when a test expires it. */
  private static final Duration LEASE = Duration.ofMinutes(10);

  private static final TaskCodec<String> UTF8 = Frontiers.STRINGS;

  @TempDir
  Path dir;

  private final List<AutoCloseable> open = new ArrayList<>();
  private final FakeClock clock = new FakeClock();
  private final CountDownLatch outageTold = new CountDownLatch(1);
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>() {
    @Override
    protected void append(ILoggingEvent event) {
      super.append(event);
      if (event.getLevel() == Level.WARN && event.getFormattedMessage().contains("unreachable")) {
        outageTold.countDown();
      }
    }
  };
  private final Logger redisLog = (Logger) LoggerFactory.getLogger("io.sievecrawl.sieve.redis");

  @BeforeEach
  void captureLog() {
    logged.start();
    redisLog.addAppender(logged);
    redisLog.setLevel(Level.INFO);
    redisLog.setAdditive(false);
  }

  @AfterEach
  void close() throws Exception {
    redisLog.detachAppender(logged);
    redisLog.setLevel(null);
    redisLog.setAdditive(true);
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
  }

  private <C extends AutoCloseable> C opened(C closeable) {
    open.add(closeable);
    return closeable;
  }

  /** An agent on the test's clock. */
  private RedisFrontier<String> agent(String uri, Duration grace) throws SharedCrawlException {
    return agent(uri, grace, clock);
  }

  /** An agent whose outage grace is timed on {@code ticker}; it beats when the test says. */
  private RedisFrontier<String> agent(String uri, Duration grace, Ticker ticker) throws SharedCrawlException {
    RedisCrawl crawl = opened(RedisCrawl.startOrJoin(uri, "test", 200_000, 0.001, 8, "", clock, ticker));
    crawl.setOutageGrace(grace);
    RedisFrontier<String> frontier = opened(RedisFrontier.openWithoutHeartbeat(crawl, UTF8, url -> url,
        url -> url.substring(0, url.indexOf('/', 8)), LEASE, "n"));
    frontier.seedsQueued(); // as the agent that starts a crawl does once it has offered its seeds
    return frontier;
  }

  private List<String> messages(Level level, String containing) {
    return logged.list.stream().filter(e -> e.getLevel() == level).map(ILoggingEvent::getFormattedMessage)
        .filter(m -> m.contains(containing)).toList();
  }

  private static List<String> urls(int count, int origins) {
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      urls.add("https://o" + (i % origins) + ".example/p" + i);
    }
    return urls;
  }

  /**
   * Takes and acknowledges tasks, one of an origin at a time, until nothing is open anywhere, counting how often each
   * was handed out; beats whenever none is in line, which lines up again the origins that a lost reply left out.
   */
  private void drain(RedisFrontier<String> agent, Map<String, Integer> taken) {
    for (int beats = 0; !agent.isFinished(); ) {
      String queue = agent.nextQueue();
      if (queue == null) {
        assertTrue(++beats < 1_000, "still open after " + beats + " heartbeats; taken " + taken.size());
        agent.heartbeat();
        clock.advance(Duration.ofSeconds(1)); // past the pauses after an empty read and between checks for the end
        continue;
      }
      Claim<String> claim = agent.poll(queue); // none if the origin was in line twice
      agent.releaseQueue(queue);
      if (claim != null) {
        taken.merge(claim.task(), 1, Integer::sum);
        agent.complete(claim);
      }
    }
  }

  /**
   * An agent on the system's clocks that beats on its own, with leases of 4 s: where cut replies fall is up to the
   * threads, and a task whose claim was cut may come back only when its lease expires on Redis's clock. (An agent
   * uses a shard for three quarters of a lease after sending its renewal; with 1.5 s leases, at a load average of 55,
   * the drain took 79 of 1,000 tasks in its two minutes.)
   */
  private RedisFrontier<String> beatingAgent(String uri) throws SharedCrawlException {
    RedisCrawl crawl = opened(RedisCrawl.startOrJoin(uri, "test", 200_000, 0.001, 8, "", java.time.Clock.systemUTC(),
        Ticker.SYSTEM));
    crawl.setOutageGrace(Duration.ofMinutes(1));
    RedisFrontier<String> frontier = opened(RedisFrontier.open(crawl, UTF8, url -> url,
        url -> url.substring(0, url.indexOf('/', 8)), Duration.ofSeconds(4), "n"));
    frontier.seedsQueued();
    return frontier;
  }

  /**
   * {@link #drain} for {@link #beatingAgent}: waits for its heartbeat and for leases to expire (4 s), failing after a
   * minute without a task handed out. A loaded machine makes the drain slow (up to 116 s of the two minutes it once
   * had, at a load average of 15 on 2 cores), never stuck.
   */
  private static void drainInRealTime(RedisFrontier<String> agent, Map<String, Integer> taken)
      throws InterruptedException {
    long stuckAfter = Duration.ofMinutes(1).toNanos();
    long lastTaken = System.nanoTime();
    while (!agent.isFinished()) {
      assertTrue(System.nanoTime() - lastTaken < stuckAfter, "no task handed out for a minute; taken "
          + taken.size());
      Claim<String> claim = Frontiers.takeOne(agent);
      if (claim == null) {
        Thread.sleep(10); // an origin waits for the heartbeat to line it up again, or a lease to expire on Redis
        continue;
      }
      lastTaken = System.nanoTime();
      taken.merge(claim.task(), 1, Integer::sum);
      agent.complete(claim);
    }
  }

  /** The crawl's shard leases are gone, as Redis removes them at their TTL. */
  private static void expireLeases(String uri) {
    try (var raw = io.lettuce.core.RedisClient.create(uri); var c = raw.connect()) {
      for (int shard = 0; shard < 8; shard++) {
        c.sync().del(CrawlKeys.key("test", "lease:" + shard));
      }
    }
  }

  @Test
  void aRestartLongerThanTheLeasesIsWaitedOutAndEveryTaskIsHandedOutOnce() throws Exception {
    RedisServer redis = opened(RedisServer.startPersistent(dir));
    RedisFrontier<String> agent = agent(redis.uri(), Duration.ofHours(1));
    List<String> urls = new ArrayList<>(urls(200, 10));
    assertEquals(200, agent.offerAll(urls).cardinality());
    Map<String, Integer> taken = new ConcurrentHashMap<>();
    List<Claim<String>> inHand = new ArrayList<>();
    while (inHand.size() < 10) {
      Claim<String> claim = Frontiers.takeOne(agent);
      taken.merge(claim.task(), 1, Integer::sum);
      inHand.add(claim); // being fetched while Redis goes away
    }

    redis.stop();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread worker = Thread.ofPlatform().start(() -> {
      try {
        assertTrue(agent.offer("https://o1.example/found-meanwhile")); // waits for Redis
      } catch (Throwable e) {
        failed.set(e);
      }
    });
    urls.add("https://o1.example/found-meanwhile");
    assertTrue(outageTold.await(1, TimeUnit.MINUTES), "the worker met the outage");
    clock.advance(LEASE.plusMinutes(1)); // the outage outlasts the leases on the agent's clock
    assertTrue(worker.isAlive(), "the worker waits for Redis");
    redis.startAgain();
    expireLeases(redis.uri()); // and on Redis's clock
    worker.join(Duration.ofMinutes(1));
    assertEquals(null, failed.get());
    agent.heartbeat(); // nobody took the shards since: the agent holds them again
    try (var raw = io.lettuce.core.RedisClient.create(redis.uri()); var c = raw.connect()) {
      for (int shard = 0; shard < 8; shard++) {
        assertEquals(1, c.sync().exists(CrawlKeys.key("test", "lease:" + shard)), "the lease of shard " + shard);
      }
    }
    for (Claim<String> claim : inHand) {
      agent.complete(claim); // fetched all along: their claims are still this agent's
    }
    drain(agent, taken);

    assertEquals(Set.copyOf(urls), taken.keySet(), "every task handed out");
    assertTrue(taken.values().stream().allMatch(n -> n == 1), "none twice: " + taken);
    assertEquals(1, messages(Level.WARN, "unreachable").size(), logged.list.toString());
    assertEquals(1, messages(Level.INFO, "answers again").size(), logged.list.toString());
    assertTrue(messages(Level.WARN, "lost the lease").isEmpty(), "the agent holds its shards again: " + logged.list);
  }

  @Test
  void commandsWhoseRepliesAreLostAreSentAgainWithoutLosingOrRepeatingATask() throws Exception {
    RedisServer redis = opened(RedisServer.start(null));
    ReplyCutter cutter = opened(new ReplyCutter(redis.port()));
    RedisFrontier<String> agent = beatingAgent(cutter.uri());
    cutter.cutEvery(10);
    List<String> urls = urls(1_000, 20);
    List<Thread> threads = new ArrayList<>();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    for (int t = 0; t < 4; t++) { // concurrent offers: a cut loses the replies of several
      int first = t;
      threads.add(Thread.ofPlatform().start(() -> {
        try {
          for (int from = first * 50; from < urls.size(); from += 200) {
            // a lost reply's URLs are called duplicates when sent again, but the first run queued them
            agent.offerAll(urls.subList(from, from + 50));
          }
        } catch (Throwable e) {
          failed.set(e);
        }
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(null, failed.get());
    Map<String, Integer> taken = new ConcurrentHashMap<>();
    long start = System.nanoTime();
    drainInRealTime(agent, taken);
    cutter.cutEvery(0);
    System.out.printf("lost replies: %d connections cut, %d outages told of, drained in %d ms%n", cutter.cuts(),
        messages(Level.WARN, "unreachable").size(), (System.nanoTime() - start) / 1_000_000);
    assertTrue(cutter.cuts() >= 20, "replies were lost: " + cutter.cuts());
    assertEquals(urls.size(), taken.size(), "every task queued and handed out");
    assertTrue(taken.values().stream().allMatch(n -> n == 1), "none twice");
    assertEquals(1_000, agent.stats().admitted(), "each admitted once");
    assertEquals(0, agent.stats().queued() + agent.stats().inFlight(), "nothing left open");
  }

  @Test
  void redisBackWithoutTheCrawlEndsTheAgentAtOnce() throws Exception {
    RedisServer redis = opened(RedisServer.start(null)); // no persistence
    RedisFrontier<String> agent = agent(redis.uri(), Duration.ofMinutes(1));
    agent.offer("https://a.example/1");
    redis.stop();
    redis.startAgain();
    FrontierFailure e = assertTimeoutPreemptively(Duration.ofSeconds(20),
        () -> assertThrows(FrontierFailure.class, () -> agent.offer("https://a.example/2")), "not waited for");
    assertTrue(e.getMessage().startsWith("the shared crawl 'test' vanished from Redis"), e.getMessage());
    assertEquals(SharedCrawlException.Kind.LOST, ((SharedCrawlException) e.getCause()).kind());
  }

  @Test
  void pastTheGraceEveryCallFailsSayingHowToContinue() throws Exception {
    RedisServer redis = opened(RedisServer.start(null));
    // the grace runs out on the system's ticker: the test waits out the real half second
    RedisFrontier<String> agent = agent(redis.uri(), Duration.ofMillis(500), Ticker.SYSTEM);
    agent.offer("https://a.example/1");
    assertEquals(1, agent.stats().admitted());
    redis.stop();
    FrontierFailure e = assertThrows(FrontierFailure.class, () -> agent.offer("https://a.example/2"));
    assertTrue(e.getMessage().matches("Redis at " + java.util.regex.Pattern.quote(redis.uri()) + " is unreachable"
        + " \\(.*\\); 'sievecrawl join --redis " + java.util.regex.Pattern.quote(redis.uri()) + " --crawl-name test'"
        + " continues the crawl once it is back"), e.getMessage());
    assertEquals(SharedCrawlException.Kind.UNREACHABLE, ((SharedCrawlException) e.getCause()).kind());
    FrontierFailure again = assertThrows(FrontierFailure.class, () -> agent.offer("https://a.example/3"));
    assertEquals(e.getMessage(), again.getMessage(), "given up for good");
    assertEquals(1, agent.stats().admitted(), "the stats as last read, without waiting");
  }
}

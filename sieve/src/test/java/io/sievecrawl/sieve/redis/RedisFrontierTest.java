package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.Frontiers;
import io.sievecrawl.sieve.TaskCodec;
import io.sievecrawl.sieve.UrlCorpus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The shared frontier against a real redis-server: exactly-once admission, hand-over of a dead agent's work. */
class RedisFrontierTest {
  private static final TaskCodec<String> UTF8 = new TaskCodec<>() {
    @Override
    public byte[] encode(String task) {
      return task.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String decode(byte[] bytes, int offset, int length) {
      return new String(bytes, offset, length, StandardCharsets.UTF_8);
    }
  };

  private RedisServer redis;
  private final List<AutoCloseable> open = new ArrayList<>();

  @BeforeEach
  void startRedis() throws Exception {
    redis = RedisServer.start(null);
  }

  @AfterEach
  void stopRedis() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  private RedisFrontier<String> agent(Duration leaseTtl) throws SharedCrawlException {
    RedisCrawl crawl = RedisCrawl.startOrJoin(redis.uri(), "test", 200_000, 0.001, 8, "");
    open.add(crawl);
    RedisFrontier<String> frontier = RedisFrontier.open(crawl, UTF8, url -> url, RedisFrontierTest::host, leaseTtl,
        "n");
    open.add(frontier);
    frontier.seedsQueued(); // as the agent that starts a crawl does once it has offered its seeds
    return frontier;
  }

  @Test
  void aNewCrawlIsNotFinishedBeforeItsSeedsAreQueuedThoughNothingIsOpen() throws Exception {
    RedisCrawl crawl = RedisCrawl.startOrJoin(redis.uri(), "seeding", 200_000, 0.001, 8, "");
    open.add(crawl);
    RedisFrontier<String> starter = RedisFrontier.open(crawl, UTF8, url -> url, RedisFrontierTest::host,
        Duration.ofSeconds(10), "n");
    open.add(starter);
    RedisCrawl joined = RedisCrawl.join(redis.uri(), "seeding");
    open.add(joined);
    RedisFrontier<String> joiner = RedisFrontier.open(joined, UTF8, url -> url, RedisFrontierTest::host,
        Duration.ofSeconds(10), "n");
    open.add(joiner);
    assertFalse(joiner.isFinished(), "the starting agent is still reading its seeds");

    starter.offerAll(List.of("https://a.example/1"));
    starter.seedsQueued();
    starter.complete(starter.poll(starter.nextQueue()));
    RedisCrawl later = RedisCrawl.join(redis.uri(), "seeding");
    open.add(later);
    RedisFrontier<String> after = RedisFrontier.open(later, UTF8, url -> url, RedisFrontierTest::host,
        Duration.ofSeconds(10), "n");
    open.add(after);
    assertTrue(after.isFinished(), "seeded, and nothing open");
  }

  private static String host(String url) {
    return url.substring(0, url.indexOf('/', 8));
  }

  @Test
  void aLargeBatchIsOfferedInPartsWhoseAnswersLineUp() throws Exception {
    RedisFrontier<String> frontier = agent(Duration.ofSeconds(10));
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < 4_000; i++) {
      urls.add("https://h" + (i % 7) + ".example/p" + i);
    }
    urls.add(3_333, urls.get(10)); // a repeat within the batch, in a later part than the first
    java.util.BitSet first = frontier.offerAll(urls);
    assertEquals(4_000, first.cardinality());
    assertFalse(first.get(3_333), "the repeat is refused at its own index");
    List<String> again = new ArrayList<>(urls.subList(0, 2_500));
    again.add(1_700, "https://h1.example/new");
    java.util.BitSet second = frontier.offerAll(again);
    assertEquals(1, second.cardinality());
    assertTrue(second.get(1_700), "the index of the one new URL, across the parts");
  }

  @Test
  void ofAgentsOfferingTheSameUrlsAtOnceExactlyOneAdmitsEach() throws Exception {
    RedisFrontier<String> a = agent(Duration.ofSeconds(10));
    RedisFrontier<String> b = agent(Duration.ofSeconds(10));
    UrlCorpus corpus = new UrlCorpus(11);
    AtomicLong admitted = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (RedisFrontier<String> agent : List.of(a, b, a, b)) {
      threads.add(Thread.ofPlatform().start(() -> {
        for (int batch = 0; batch < 100; batch++) {
          List<String> urls = new ArrayList<>();
          for (int i = 0; i < 50; i++) {
            urls.add(corpus.url(batch * 50 + i)); // every thread offers the same 5,000 URLs
          }
          admitted.addAndGet(agent.offerAll(urls).cardinality());
        }
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    assertTrue(admitted.get() > 4_990 && admitted.get() <= 5_000, "admitted " + admitted.get());
    assertEquals(admitted.get(), a.stats().admitted());
    assertEquals(20_000 - admitted.get(), a.stats().duplicatesDropped());

    // Shards move between the two agents as their heartbeats rebalance: drain both until nothing is open.
    Map<String, Integer> taken = new ConcurrentHashMap<>();
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (!a.isFinished() && System.nanoTime() < deadline) {
      boolean any = false;
      for (RedisFrontier<String> agent : List.of(a, b)) {
        for (Claim<String> c = Frontiers.takeOne(agent); c != null; c = Frontiers.takeOne(agent)) {
          taken.merge(c.task(), 1, Integer::sum);
          agent.complete(c);
          any = true;
        }
      }
      if (!any) {
        Thread.sleep(20); // a shard in hand-over: its new owner claims it at its next heartbeat
      }
    }
    assertEquals(admitted.get(), taken.size(), "every admitted task handed out");
    assertTrue(taken.values().stream().allMatch(n -> n == 1), "no task handed out twice");
    assertTrue(a.isFinished(), "nothing open once every task is acknowledged");
  }

  @Test
  void theTasksOfAnAgentThatStoppedRenewingItsLeasesGoToAnother() throws Exception {
    RedisFrontier<String> dead = agent(Duration.ofMillis(600));
    List<String> urls = List.of("https://a.example/1", "https://b.example/1", "https://c.example/1",
        "https://d.example/1");
    assertEquals(4, dead.offerAll(urls).cardinality());
    List<String> claimed = new ArrayList<>();
    for (Claim<String> c = Frontiers.takeOne(dead); c != null; c = Frontiers.takeOne(dead)) {
      claimed.add(c.task()); // claimed, never acknowledged: the agent dies with them
    }
    assertEquals(4, claimed.size());
    dead.stopRenewingForTest();

    RedisFrontier<String> heir = agent(Duration.ofMillis(600));
    Set<String> redone = ConcurrentHashMap.newKeySet();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (redone.size() < 4 && System.nanoTime() < deadline) {
      Claim<String> c = Frontiers.takeOne(heir);
      if (c == null) {
        Thread.sleep(50); // the dead agent's leases expire after 600 ms; the heir's heartbeat then takes them
        continue;
      }
      redone.add(c.task());
      heir.complete(c);
    }
    assertEquals(Set.copyOf(urls), redone, "every unacknowledged task is done again by the heir");
    assertFalse(heir.offer("https://a.example/1"), "and the filter still knows them");
  }

  @Test
  void anOriginIsReadWithoutTheOthersAndOriginsTakeTurns() throws Exception {
    RedisFrontier<String> agent = agent(Duration.ofSeconds(10));
    for (int i = 0; i < 50; i++) {
      agent.offer("https://a.example/" + i);
    }
    agent.offer("https://b.example/only");
    String first = agent.nextQueue();
    String second = agent.nextQueue();
    assertEquals(Set.of("https://a.example", "https://b.example"), Set.of(first, second));
    assertNull(agent.nextQueue(), "both are checked out");
    Claim<String> only = agent.poll("https://b.example");
    assertEquals("https://b.example/only", only.task(), "not behind the 50 tasks of another origin");
    agent.complete(only);
    assertNull(agent.poll("https://b.example"));
    for (int i = 0; i < 20; i++) {
      Claim<String> c = agent.poll("https://a.example");
      assertEquals("https://a.example/" + i, c.task(), "an origin's tasks in the order they were admitted");
      agent.complete(c);
    }
    agent.releaseQueue("https://a.example"); // its tasks claimed ahead go back to the head of its list
    agent.releaseQueue("https://b.example");
    assertEquals("https://a.example", agent.nextQueue(), "back in line: it holds tasks");
    assertEquals("https://a.example/20", agent.poll("https://a.example").task());
    assertNull(agent.nextQueue(), "b holds none");
    assertEquals(30, agent.stats().queued() + agent.stats().inFlight());
  }

  @Test
  void anAgentWhoseShardWasTakenOverCannotHaveItsTaskDoneTwice() throws Exception {
    RedisFrontier<String> stale = agent(Duration.ofMillis(600));
    assertTrue(stale.offer("https://a.example/1"));
    String queue = stale.nextQueue();
    Claim<String> claimed = stale.poll(queue);
    assertEquals("https://a.example/1", claimed.task());
    stale.stopRenewingForTest(); // its lease runs out while it still holds the claim

    RedisFrontier<String> heir = agent(Duration.ofMillis(600));
    Claim<String> taken = null;
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (taken == null && System.nanoTime() < deadline) {
      taken = Frontiers.takeOne(heir);
      if (taken == null) {
        Thread.sleep(50); // the stale agent's lease expires after 600 ms; the heir's heartbeat then takes it
      }
    }
    assertEquals("https://a.example/1", taken.task(), "the heir claimed the stale agent's task");
    assertNull(stale.poll(queue), "the stale agent no longer owns the shard");
    stale.releaseQueue(queue); // unaware, it gives the origin back
    stale.complete(claimed); // and finishes its copy: the heir's claim stays open
    assertEquals(1, heir.stats().queued() + heir.stats().inFlight(), "the heir's claim is still open");
    heir.complete(taken);
    assertNull(Frontiers.takeOne(heir), "no second copy to do");
    assertTrue(heir.isFinished(), "nothing open");
  }

  @Test
  void aCrawlWhoseDataVanishesFailsClearly() throws Exception {
    RedisFrontier<String> agent = agent(Duration.ofSeconds(10));
    agent.offer("https://a.example/");
    try (var raw = io.lettuce.core.RedisClient.create(redis.uri()); var c = raw.connect()) {
      c.sync().flushall();
    }
    FrontierFailure e = assertThrows(FrontierFailure.class, () -> agent.offer("https://a.example/x"));
    assertTrue(e.getMessage().startsWith("the shared crawl 'test' vanished from Redis"), e.getMessage());
  }

  @Test
  void aCrawlAgentsWorkIsNotRemovedAndOneTheyLeftIsRemovedWhole() throws Exception {
    RedisFrontier<String> frontier = agent(Duration.ofSeconds(10));
    frontier.offerAll(List.of("https://a.example/1", "https://b.example/1"));
    SharedCrawlException inUse = assertThrows(SharedCrawlException.class,
        () -> SharedCrawlRemoval.remove(redis.uri(), "test", settings -> Duration.ofSeconds(30)));
    assertEquals(SharedCrawlException.Kind.IN_USE, inUse.kind());
    assertTrue(inUse.getMessage().contains("is being worked by 1 agent (heard from in the last 30 s)"), inUse.getMessage());
    for (AutoCloseable c : open) {
      c.close();
    }
    open.clear();

    long removed = SharedCrawlRemoval.remove(redis.uri(), "test", settings -> Duration.ZERO); // no agent counts as live
    assertTrue(removed >= 5, "meta, counters, filter, queues, line: " + removed);
    assertEquals(SharedCrawlException.Kind.NO_SUCH_CRAWL, assertThrows(SharedCrawlException.class,
        () -> RedisCrawl.join(redis.uri(), "test")).kind());
    RedisCrawl fresh = RedisCrawl.startOrJoin(redis.uri(), "test", 200_000, 0.001, 8, "");
    open.add(fresh);
    RedisFrontier<String> again = RedisFrontier.open(fresh, UTF8, url -> url, RedisFrontierTest::host,
        Duration.ofSeconds(10), "n");
    open.add(again);
    assertEquals(2, again.offerAll(List.of("https://a.example/1", "https://b.example/1")).cardinality(),
        "nothing of the removed crawl is left: its URLs are new");
  }

  @Test
  void aChunkOfTheFilterTakesItsSizeInRedisNotTwice() throws Exception {
    RedisFrontier<String> frontier = agent(Duration.ofSeconds(10));
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      urls.add("https://h" + (i % 7) + ".example/p" + i);
    }
    frontier.offerAll(urls);
    RedisCrawl crawl = RedisCrawl.join(redis.uri(), "test");
    open.add(crawl);
    long chunks = 0;
    for (int chunk = 0; chunk < 64; chunk++) {
      String key = crawl.key("f:" + chunk);
      Long bytes = crawl.call(redis -> redis.memoryUsage(key));
      if (bytes != null) {
        chunks++;
        assertTrue(bytes < Scripts.CHUNK_BYTES * 21 / 20, "chunk " + chunk + " takes " + bytes + " bytes");
      }
    }
    assertTrue(chunks > 0, "the URLs set bits in some chunk");
  }

  @Test
  void joiningWithAnotherNOrPIsRefused() throws Exception {
    agent(Duration.ofSeconds(10));
    SharedCrawlException e = assertThrows(SharedCrawlException.class,
        () -> RedisCrawl.startOrJoin(redis.uri(), "test", 200_000, 0.01, 8, ""));
    assertEquals(SharedCrawlException.Kind.MISMATCH, e.kind());
    assertTrue(e.getMessage().contains("exists with n = 200000 and p = 0.001"), e.getMessage());
    SharedCrawlException none = assertThrows(SharedCrawlException.class,
        () -> RedisCrawl.join(redis.uri(), "other"));
    assertEquals(SharedCrawlException.Kind.NO_SUCH_CRAWL, none.kind());
  }

  @Test
  void aBadPortOrAnUnknownHostIsSaidAsSuch() {
    for (String port : List.of("abc", "99999", "0", "")) {
      SharedCrawlException bad = assertThrows(SharedCrawlException.class,
          () -> RedisCrawl.join("redis://127.0.0.1:" + port + "/0", "test"), port);
      assertTrue(bad.getMessage().startsWith("not a Redis URI: 'redis://127.0.0.1:" + port + "/0': the port '" + port
          + "' is not a number from 1 to 65535"), bad.getMessage());
    }
    // No DNS query is sent from a test: the failure Lettuce reports for an unknown host is made here.
    SharedCrawlException unknown = RedisCrawl.failure("redis://nowhere.invalid:6379",
        new io.lettuce.core.RedisConnectionException("Unable to connect",
            new java.net.UnknownHostException("nowhere.invalid: Query failed with NXDOMAIN")));
    assertTrue(unknown.getMessage().startsWith("cannot reach Redis at redis://nowhere.invalid:6379: unknown host"),
        unknown.getMessage());
    SharedCrawlException full = RedisCrawl.failure("redis://127.0.0.1:6379", new io.lettuce.core
        .RedisCommandExecutionException("OOM command not allowed when used memory > 'maxmemory'. script: 6e6f, on"
            + " @user_script:34."));
    assertEquals("Redis at redis://127.0.0.1:6379 is out of memory (OOM command not allowed when used memory >"
        + " 'maxmemory'): raise its maxmemory or free memory, then continue the crawl with 'sievecrawl join'",
        full.getMessage());
  }

  @Test
  void anUnreachableRedisAndAWrongPasswordAreToldApart() throws Exception {
    int port = redis.port();
    redis.close();
    redis = null;
    SharedCrawlException down = assertThrows(SharedCrawlException.class,
        () -> RedisCrawl.join("redis://127.0.0.1:" + port + "/0", "test"));
    assertEquals(SharedCrawlException.Kind.UNREACHABLE, down.kind());
    assertTrue(down.getMessage().startsWith("cannot reach Redis at redis://127.0.0.1:" + port), down.getMessage());

    redis = RedisServer.start("s3cret");
    SharedCrawlException refused = assertThrows(SharedCrawlException.class,
        () -> RedisCrawl.join("redis://:wrong@127.0.0.1:" + redis.port() + "/0", "test"));
    assertEquals(SharedCrawlException.Kind.REFUSED, refused.kind(), refused.getMessage());
    assertTrue(refused.getMessage().startsWith("Redis at redis://:***@127.0.0.1:" + redis.port() + "/0 refused us"),
        "the password given is not echoed: " + refused.getMessage());
    assertFalse(refused.getMessage().contains("wrong"), refused.getMessage());
  }

  @Test
  void aPasswordIsShownAsStarsWhereverTheUriIsShown() {
    assertEquals("redis://:***@host:6379/0", RedisCrawl.shown("redis://:s3cret@host:6379/0"));
    assertEquals("redis://ann:***@host:6379", RedisCrawl.shown("redis://ann:s3cret@host:6379"));
    assertEquals("redis://***@host", RedisCrawl.shown("redis://s3cret@host"));
    assertEquals("rediss://host:6380/2", RedisCrawl.shown("rediss://host:6380/2"));
  }
}

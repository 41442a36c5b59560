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
import io.sievecrawl.sieve.testing.FakeClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shared frontier against a real redis-server: exactly-once admission, hand-over of a dead agent's work. The
 * agents beat when the test says ({@link RedisFrontier#heartbeat}) on a clock the test moves, and their leases expire
 * when the test expires them, as Redis would at their TTL: nothing waits for time to pass.
 */
class RedisFrontierIT {
  private static final int SHARDS = 8;
  /** Longer than any test: on Redis's clock a lease expires only when {@link #leaseTimePasses} says so. */
  private static final Duration LEASE = Duration.ofMinutes(10);

  private static final TaskCodec<String> UTF8 = Frontiers.STRINGS;

  private RedisServer redis;
  private final List<AutoCloseable> open = new ArrayList<>();
  private final FakeClock clock = new FakeClock();

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

  /** An agent's connection to the crawl {@code name}, which it creates if need be. */
  private RedisCrawl crawl(String name) throws SharedCrawlException {
    RedisCrawl crawl = RedisCrawl.startOrJoin(redis.uri(), name, 200_000, 0.001, SHARDS, "", clock, clock);
    open.add(crawl);
    return crawl;
  }

  /** A new agent of the crawl "test", whose seeds are queued. */
  private RedisFrontier<String> agent() throws SharedCrawlException {
    return agent(crawl("test"));
  }

  /** The frontier of an agent of the crawl "test" on {@code crawl}, whose seeds are queued. */
  private RedisFrontier<String> agent(RedisCrawl crawl) {
    RedisFrontier<String> frontier = frontier(crawl);
    frontier.seedsQueued(); // as the agent that starts a crawl does once it has offered its seeds
    return frontier;
  }

  /** The frontier of an agent on {@code crawl}: it takes its first share of the shards, then beats when told to. */
  private RedisFrontier<String> frontier(RedisCrawl crawl) {
    RedisFrontier<String> frontier = RedisFrontier.openWithoutHeartbeat(crawl, UTF8, url -> url,
        RedisFrontierIT::host, LEASE, "n");
    open.add(frontier);
    return frontier;
  }

  /**
   * What a lease time on Redis's clock does to the agent of {@code dead}, which has stopped beating: its leases
   * expire (their keys go, as Redis removes them at their TTL), and its last heartbeat is a lease time old, so that
   * the other agents count it dead.
   */
  private void leaseTimePasses(RedisCrawl dead) {
    try (var raw = io.lettuce.core.RedisClient.create(redis.uri()); var c = raw.connect()) {
      var commands = c.sync();
      for (int shard = 0; shard < SHARDS; shard++) {
        String lease = dead.key("lease:" + shard);
        if (dead.agentId().equals(commands.get(lease))) {
          commands.del(lease);
        }
      }
      List<String> time = commands.time();
      long now = Long.parseLong(time.get(0)) * 1_000 + Long.parseLong(time.get(1)) / 1_000;
      commands.hset(dead.key("agents"), dead.agentId(), Long.toString(now - LEASE.toMillis()));
    }
  }

  @Test
  void aNewCrawlIsNotFinishedBeforeItsSeedsAreQueuedThoughNothingIsOpen() throws Exception {
    RedisFrontier<String> starter = frontier(crawl("seeding"));
    RedisCrawl joined = RedisCrawl.join(redis.uri(), "seeding", clock);
    open.add(joined);
    RedisFrontier<String> joiner = frontier(joined);
    assertFalse(joiner.isFinished(), "the starting agent is still reading its seeds");

    starter.offerAll(List.of("https://a.example/1"));
    starter.seedsQueued();
    starter.complete(starter.poll(starter.nextQueue()));
    RedisCrawl later = RedisCrawl.join(redis.uri(), "seeding", clock);
    open.add(later);
    RedisFrontier<String> after = frontier(later);
    assertTrue(after.isFinished(), "seeded, and nothing open");
  }

  private static String host(String url) {
    return url.substring(0, url.indexOf('/', 8));
  }

  /**
   * A lease that has lapsed by the agent's own clock (it may still hold in Redis): nothing more of the shard is handed
   * out or counted as this agent's, what it claimed goes back to the origin's list, and once the lease is renewed the
   * work goes on, nothing stranded in flight.
   */
  @Test
  void aLeaseLapsedByTheAgentsClockStopsItsWorkAndStrandsNothing() throws Exception {
    RedisCrawl crawl = crawl("lapse");
    RedisFrontier<String> agent = agent(crawl);
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      urls.add("https://o.example/" + i);
    }
    agent.offerAll(urls);
    assertEquals("https://o.example", agent.nextQueue());
    Claim<String> first = agent.poll("https://o.example");
    assertTrue(agent.owns(first));

    clock.advance(LEASE.minus(LEASE.dividedBy(4))); // three quarters of a lease time since it was renewed
    assertFalse(agent.owns(first), "not to be sent: the lease may have expired by the agent's clock");
    assertNull(agent.poll("https://o.example"), "nothing more handed out");
    agent.abandon(first);
    agent.releaseQueue("https://o.example");
    try (var raw = io.lettuce.core.RedisClient.create(redis.uri()); var c = raw.connect()) {
      int shard = agent.shardOf("https://o.example");
      assertEquals(0, c.sync().hlen(crawl.key("flight:" + shard)), "what it claimed is back in the list");
      assertEquals(20, c.sync().llen(crawl.key("o:https://o.example")));
    }

    agent.heartbeat(); // renewed: still this agent's in Redis
    Map<String, Integer> taken = new HashMap<>();
    assertEquals(20, work(agent, 100, taken));
    assertEquals(Set.copyOf(urls), taken.keySet());
    clock.advance(Duration.ofSeconds(1));
    assertTrue(agent.isFinished());
  }

  @Test
  void aLargeBatchIsOfferedInPartsWhoseAnswersLineUp() throws Exception {
    RedisFrontier<String> frontier = agent();
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
    RedisFrontier<String> a = agent();
    RedisFrontier<String> b = agent();
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

    // Shards move between the two agents as their heartbeats rebalance: drain both, a few tasks a turn, and beat
    // both after each turn, until nothing is open.
    Map<String, Integer> taken = new HashMap<>();
    Set<RedisFrontier<String>> handedOut = new HashSet<>();
    for (int turn = 0; !a.isFinished(); turn++) {
      assertTrue(turn < 1_000, "still open after " + turn + " turns; taken " + taken.size());
      for (RedisFrontier<String> agent : List.of(a, b)) {
        if (work(agent, 200, taken) > 0) {
          handedOut.add(agent);
        }
      }
      a.heartbeat();
      b.heartbeat();
      clock.advance(Duration.ofSeconds(1)); // past the pauses after an empty read and between checks for the end
    }
    assertEquals(Set.of(a, b), handedOut, "both agents worked shards");
    assertEquals(admitted.get(), taken.size(), "every admitted task handed out");
    assertTrue(taken.values().stream().allMatch(n -> n == 1), "no task handed out twice");
    assertTrue(a.isFinished(), "nothing open once every task is acknowledged");
  }

  /**
   * Takes and acknowledges up to {@code most} tasks, origin by origin as they come out of line, until none is in line;
   * returns how many. An origin in line twice may turn out to have nothing left: the next one is asked for.
   */
  private static int work(RedisFrontier<String> agent, int most, Map<String, Integer> taken) {
    int done = 0;
    for (String queue = agent.nextQueue(); queue != null; queue = done < most ? agent.nextQueue() : null) {
      for (Claim<String> c = agent.poll(queue); c != null; c = done < most ? agent.poll(queue) : null) {
        taken.merge(c.task(), 1, Integer::sum);
        agent.complete(c);
        done++;
      }
      agent.releaseQueue(queue);
    }
    return done;
  }

  @Test
  void confirmedFarPastCapacityTwoAgentsRacingAdmitEveryUrlOnceAndCountTheRescues() throws Exception {
    List<RedisFrontier<String>> agents = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      RedisCrawl crawl = RedisCrawl.startOrJoin(redis.uri(), "confirmed", 200, 0.01, true, SHARDS, "", clock, clock);
      open.add(crawl);
      assertTrue(crawl.confirmed());
      agents.add(agent(crawl));
    }
    UrlCorpus corpus = new UrlCorpus(8);
    int urls = 5_000;
    java.util.concurrent.atomic.AtomicIntegerArray times = new java.util.concurrent.atomic.AtomicIntegerArray(urls);
    List<Thread> threads = new ArrayList<>();
    for (RedisFrontier<String> agent : List.of(agents.get(0), agents.get(1), agents.get(0), agents.get(1))) {
      threads.add(Thread.ofPlatform().start(() -> {
        for (int batch = 0; batch < urls / 50; batch++) {
          List<String> offered = new ArrayList<>();
          for (int i = 0; i < 50; i++) {
            offered.add(corpus.url(batch * 50 + i));
          }
          java.util.BitSet admitted = agent.offerAll(offered);
          for (int i = admitted.nextSetBit(0); i >= 0; i = admitted.nextSetBit(i + 1)) {
            times.incrementAndGet(batch * 50 + i);
          }
        }
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    for (int i = 0; i < urls; i++) {
      assertEquals(1, times.get(i), "URL " + i + " admitted once, by one agent");
    }
    var stats = agents.get(0).stats();
    assertEquals(urls, stats.admitted());
    assertEquals(3 * urls, stats.duplicatesDropped());
    assertTrue(stats.confirmed());
    assertTrue(stats.rescued() > urls / 2, "most admitted past n = 200 were rescued: " + stats.rescued());
    assertEquals(0, stats.estimatedFalsePositiveDrops());
    // An admission run again (its reply lost) admits nothing more.
    assertEquals(0, agents.get(0).offerAll(List.of(corpus.url(7), corpus.url(4_999))).cardinality());
  }

  @Test
  void aBucketOfTheExactStoreStaysACompactSetOfIntegers() throws Exception {
    assertEquals(16, CrawlMeta.bucketBits(10_000_000)); // 65,536 buckets: 153 fingerprints each at n
    assertEquals(0, CrawlMeta.bucketBits(200));
    RedisCrawl crawl = RedisCrawl.startOrJoin(redis.uri(), "buckets", 100_000, 0.01, true, SHARDS, "", clock,
        clock);
    open.add(crawl);
    RedisFrontier<String> agent = agent(crawl);
    UrlCorpus corpus = new UrlCorpus(9);
    List<String> offered = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      offered.add(corpus.url(i));
    }
    assertEquals(100_000, agent.offerAll(offered).cardinality());
    try (var raw = io.lettuce.core.RedisClient.create(redis.uri()); var c = raw.connect()) {
      var commands = c.sync();
      List<String> buckets = commands.keys(crawl.key("x:*"));
      assertEquals(512, buckets.size());
      long members = 0;
      long bytes = 0;
      for (String bucket : buckets) {
        assertEquals("intset", commands.objectEncoding(bucket), bucket);
        members += commands.scard(bucket);
        bytes += commands.memoryUsage(bucket);
      }
      assertEquals(100_000, members);
      System.out.printf("exact store in Redis: %.1f bytes per fingerprint%n", (double) bytes / members);
      assertTrue(bytes < 12.0 * members, bytes / (double) members + " bytes per fingerprint");
    }
  }

  @Test
  void theTasksOfAnAgentThatStoppedRenewingItsLeasesGoToAnother() throws Exception {
    RedisCrawl deadAgent = crawl("test");
    RedisFrontier<String> dead = agent(deadAgent);
    List<String> urls = List.of("https://a.example/1", "https://b.example/1", "https://c.example/1",
        "https://d.example/1");
    assertEquals(4, dead.offerAll(urls).cardinality());
    List<String> claimed = new ArrayList<>();
    for (Claim<String> c = Frontiers.takeOne(dead); c != null; c = Frontiers.takeOne(dead)) {
      claimed.add(c.task()); // claimed, never acknowledged: the agent dies with them
    }
    assertEquals(4, claimed.size()); // and it beats no more

    RedisFrontier<String> heir = agent();
    assertNull(Frontiers.takeOne(heir), "the dead agent's leases hold the shards until they expire");
    leaseTimePasses(deadAgent);
    heir.heartbeat(); // takes the shards whose leases expired, and puts their unacknowledged tasks back in line
    clock.advance(Duration.ofSeconds(1)); // past the heir's pause after it found nothing in line
    Set<String> redone = new HashSet<>();
    for (Claim<String> c = Frontiers.takeOne(heir); c != null; c = Frontiers.takeOne(heir)) {
      redone.add(c.task());
      heir.complete(c);
    }
    assertEquals(Set.copyOf(urls), redone, "every unacknowledged task is done again by the heir");
    assertFalse(heir.offer("https://a.example/1"), "and the filter still knows them");
  }

  @Test
  void anOriginIsReadWithoutTheOthersAndOriginsTakeTurns() throws Exception {
    RedisFrontier<String> agent = agent();
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
    RedisCrawl staleAgent = crawl("test");
    RedisFrontier<String> stale = agent(staleAgent);
    assertTrue(stale.offer("https://a.example/1"));
    String queue = stale.nextQueue();
    Claim<String> claimed = stale.poll(queue);
    assertEquals("https://a.example/1", claimed.task());

    RedisFrontier<String> heir = agent();
    leaseTimePasses(staleAgent); // it beats no more, and its lease runs out while it still holds the claim
    heir.heartbeat();
    Claim<String> taken = Frontiers.takeOne(heir);
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
    RedisFrontier<String> agent = agent();
    agent.offer("https://a.example/");
    try (var raw = io.lettuce.core.RedisClient.create(redis.uri()); var c = raw.connect()) {
      c.sync().flushall();
    }
    FrontierFailure e = assertThrows(FrontierFailure.class, () -> agent.offer("https://a.example/x"));
    assertTrue(e.getMessage().startsWith("the shared crawl 'test' vanished from Redis"), e.getMessage());
  }

  @Test
  void aCrawlAgentsWorkIsNotRemovedAndOneTheyLeftIsRemovedWhole() throws Exception {
    RedisFrontier<String> frontier = agent();
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
        () -> RedisCrawl.join(redis.uri(), "test", clock)).kind());
    RedisFrontier<String> again = frontier(crawl("test"));
    assertEquals(2, again.offerAll(List.of("https://a.example/1", "https://b.example/1")).cardinality(),
        "nothing of the removed crawl is left: its URLs are new");
  }

  @Test
  void aChunkOfTheFilterTakesItsSizeInRedisNotTwice() throws Exception {
    RedisFrontier<String> frontier = agent();
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      urls.add("https://h" + (i % 7) + ".example/p" + i);
    }
    frontier.offerAll(urls);
    RedisCrawl crawl = RedisCrawl.join(redis.uri(), "test", clock);
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

  /** A crawl started again is joined as it was created; whether the settings may join it is the caller's rule. */
  @Test
  void startingACrawlThatExistsJoinsItWithTheNAndPItWasCreatedWith() throws Exception {
    agent();
    try (RedisCrawl joined = RedisCrawl.startOrJoin(redis.uri(), "test", 50_000, 0.01, SHARDS, "", clock, clock)) {
      assertEquals(200_000, joined.n());
      assertEquals(0.001, joined.p());
    }
    SharedCrawlException none = assertThrows(SharedCrawlException.class,
        () -> RedisCrawl.join(redis.uri(), "other", clock));
    assertEquals(SharedCrawlException.Kind.NO_SUCH_CRAWL, none.kind());
  }

  /**
   * A crawl of a format before is refused in one line naming its version, by an agent starting or joining, and is
   * removed whole: version 6 (one counters hash, every key under the crawl's tag) and version 7 (a hash per shard
   * counting its open tasks, where this build counts those done).
   */
  @Test
  void aCrawlOfAFormatBeforeIsRefusedInOneLineNamingItsVersionAndRemovedWhole() throws Exception {
    for (int version : List.of(6, 7)) {
      try (var raw = io.lettuce.core.RedisClient.create(redis.uri()); var c = raw.connect()) {
        c.sync().hset(CrawlKeys.key("test", "meta"), Map.of("format", "sievecrawl-shared", "version",
            Integer.toString(version), "n", "100000", "p", "0.001", "seed", "0", "blocks", "300", "k", "10", "shards",
            "8", "confirm", "false"));
        if (version == 6) {
          c.sync().hset(CrawlKeys.key("test", "counters"), Map.of("admitted", "1", "open", "1", "open:3", "1"));
        } else {
          c.sync().hset(CrawlKeys.key("test", "counters"), Map.of("bits", "10"));
          c.sync().hset(CrawlKeys.key("test", "shard:3"), Map.of("version", "7", "admitted", "1", "open", "1"));
        }
        c.sync().rpush(CrawlKeys.key("test", "o:https://o.example"), "https://o.example/");
        c.sync().rpush(CrawlKeys.key("test", "line:3"), "https://o.example");
      }
      String expected = "the shared crawl 'test' has format version " + version + ", but this build reads version "
          + CrawlMeta.VERSION + ": finish it with the build that made it, or remove it with 'sievecrawl remove"
          + " --redis " + redis.uri() + " --crawl-name test'";
      SharedCrawlException joining = assertThrows(SharedCrawlException.class,
          () -> RedisCrawl.join(redis.uri(), "test", clock));
      assertEquals(SharedCrawlException.Kind.MISMATCH, joining.kind());
      assertEquals(expected, joining.getMessage());
      SharedCrawlException starting = assertThrows(SharedCrawlException.class,
          () -> RedisCrawl.startOrJoin(redis.uri(), "test", 100_000, 0.001, SHARDS, "", clock, clock));
      assertEquals(expected, starting.getMessage());
      try (var raw = io.lettuce.core.RedisClient.create(redis.uri()); var c = raw.connect()) {
        int keys = version == 6 ? 4 : 5;
        assertEquals(keys, c.sync().dbsize(), "refusing wrote nothing");
        assertEquals(keys, SharedCrawlRemoval.remove(redis.uri(), "test", settings -> Duration.ofSeconds(30)));
        assertEquals(0, c.sync().dbsize());
      }
    }
  }

  @Test
  void aBadPortOrAnUnknownHostIsSaidAsSuch() {
    for (String port : List.of("abc", "99999", "0", "")) {
      SharedCrawlException bad = assertThrows(SharedCrawlException.class,
          () -> RedisCrawl.join("redis://127.0.0.1:" + port + "/0", "test", clock), port);
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
        () -> RedisCrawl.join("redis://127.0.0.1:" + port + "/0", "test", clock));
    assertEquals(SharedCrawlException.Kind.UNREACHABLE, down.kind());
    assertTrue(down.getMessage().startsWith("cannot reach Redis at redis://127.0.0.1:" + port), down.getMessage());

    redis = RedisServer.start("s3cret");
    SharedCrawlException refused = assertThrows(SharedCrawlException.class,
        () -> RedisCrawl.join("redis://:wrong@127.0.0.1:" + redis.port() + "/0", "test", clock));
    assertEquals(SharedCrawlException.Kind.REFUSED, refused.kind(), refused.getMessage());
    assertTrue(refused.getMessage().startsWith("Redis at redis://***@127.0.0.1:" + redis.port() + "/0 refused us"),
        "the password given is not echoed: " + refused.getMessage());
    assertFalse(refused.getMessage().contains("wrong"), refused.getMessage());
  }

  @Test
  void everythingBetweenTheSchemeAndTheLastAtIsShownAsStars() {
    assertEquals("redis://***@host:6379/0", RedisCrawl.shown("redis://:s3cret@host:6379/0"));
    assertEquals("redis://***@host:6379", RedisCrawl.shown("redis://ann:s3cret@host:6379"));
    assertEquals("redis://***@host", RedisCrawl.shown("redis://s3cret@host"));
    assertEquals("rediss://host:6380/2", RedisCrawl.shown("rediss://host:6380/2"));
    // a password holding '@' or '/', not percent-encoded: none of it is shown
    assertEquals("redis://***@host:6379/0", RedisCrawl.shown("redis://:p@ss@host:6379/0"));
    assertEquals("redis://***@host:6379/0", RedisCrawl.shown("redis://:pa/ss@host:6379/0"));
    assertEquals("redis://***@host:6379/0", RedisCrawl.shown("redis://ann:p@s/s:w@host:6379/0"));
  }

  /** A password holding '@' or '/' is refused without a word of it unless percent-encoded, and then it works. */
  @Test
  void aPasswordWithAtAndSlashIsRefusedUnlessPercentEncoded() throws Exception {
    redis.close();
    redis = RedisServer.start("p@ss/w:rd");
    for (String raw : List.of("redis://:p@ss/w:rd@127.0.0.1:" + redis.port() + "/0",
        "redis://:pa/ss@127.0.0.1:" + redis.port() + "/0")) {
      SharedCrawlException refused = assertThrows(SharedCrawlException.class,
          () -> RedisCrawl.startOrJoin(raw, "pw", 1_000, 0.01, 4, "", clock, clock));
      assertEquals("not a Redis URI: 'redis://***@127.0.0.1:" + redis.port() + "/0': the password (or user name)"
          + " holds '@', '/', '?' or '#': percent-encode them (%40, %2F, %3F, %23), or give the password in"
          + " SIEVECRAWL_REDIS_PASSWORD (expected redis://[:PASSWORD@]HOST:PORT[/DB], or"
          + " redis://HOST1:PORT1,HOST2:PORT2 for nodes of a Redis Cluster, the password percent-encoded, or"
          + " rediss:// for TLS)", refused.getMessage());
    }
    try (RedisCrawl encoded = RedisCrawl.startOrJoin("redis://:p%40ss%2Fw%3Ard@127.0.0.1:" + redis.port() + "/0",
        "pw", 1_000, 0.01, 4, "", clock, clock)) {
      assertEquals("redis://***@127.0.0.1:" + redis.port() + "/0", encoded.uri());
    }
  }
}

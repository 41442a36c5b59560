package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontiers;
import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Agents on a real Redis Cluster of three masters: pointed at any node, or at several, they find the crawl's slot
 * wherever it is served; a URI that does not fit the Redis found is refused in one line.
 */
class RedisClusterAgentsIT {
  private static final int SHARDS = 8;
  private static final Duration LEASE = Duration.ofMinutes(10); // expires only when the test says: none does here
  private static final int PAGES = 600;
  private static final int HOSTS = 6;

  private static RedisCluster cluster;
  private final List<AutoCloseable> open = new ArrayList<>();
  private final FakeClock clock = new FakeClock();

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = RedisCluster.start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @AfterEach
  void closeAgents() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
  }

  private RedisFrontier<String> agent(String uri, String name) throws SharedCrawlException {
    RedisCrawl crawl = RedisCrawl.startOrJoin(uri, name, 100_000, 0.001, true, SHARDS, "", clock, clock);
    open.add(crawl);
    crawl.setOutageGrace(Duration.ofMinutes(2)); // timed on the test's clock, which moves only between turns
    RedisFrontier<String> frontier = RedisFrontier.openWithoutHeartbeat(crawl, Frontiers.STRINGS, url -> url,
        url -> url.substring(0, url.indexOf('/', 8)), LEASE, "n");
    open.add(frontier);
    return frontier;
  }

  private static String page(int i) {
    return "https://h" + (i % HOSTS) + ".example/p" + i;
  }

  /** A page's links: its three children in a tree over every page (so all are reachable), and its parent again. */
  private static List<String> links(String url) {
    int i = Integer.parseInt(url.substring(url.lastIndexOf("/p") + 2));
    List<String> links = new ArrayList<>();
    for (int child = 3 * i + 1; child <= 3 * i + 3 && child < PAGES; child++) {
      links.add(page(child));
    }
    links.add(page(i / 3));
    return links;
  }

  @Test
  void twoAgentsOnNodesThatDoNotServeTheCrawlsSlotFetchEveryPageOnce() throws Exception {
    RedisCluster.Node owner = cluster.ownerOf(CrawlKeys.key("docs", "meta"));
    List<RedisCluster.Node> others = cluster.masters().stream().filter(node -> node != owner).toList();
    assertEquals(2, others.size());
    RedisFrontier<String> a = agent(others.get(0).uri(), "docs");
    a.offerAll(List.of(page(0)));
    a.seedsQueued();
    RedisFrontier<String> b = agent(others.get(1).uri(), "docs");

    Map<String, Integer> fetched = new HashMap<>();
    Map<RedisFrontier<String>, Integer> byAgent = crawlToTheEnd(a, b, fetched, () -> {});
    assertEquals(PAGES, fetched.size(), "every page fetched");
    assertTrue(fetched.values().stream().allMatch(n -> n == 1), "no page fetched twice");
    assertTrue(byAgent.get(a) > 0 && byAgent.get(b) > 0, "both agents fetched: " + byAgent.values());
    assertEquals(PAGES, a.stats().admitted());
    assertNotEquals(0, cluster.keysPerMaster().get(owner), "the crawl's keys are on the node serving its slot");
  }

  /**
   * Both agents take turns until the crawl is finished, beating after each turn; {@code afterPage} runs after each
   * page. Returns the pages each agent fetched.
   */
  private Map<RedisFrontier<String>, Integer> crawlToTheEnd(RedisFrontier<String> a, RedisFrontier<String> b,
      Map<String, Integer> fetched, Runnable afterPage) {
    Map<RedisFrontier<String>, Integer> byAgent = new HashMap<>();
    for (int turn = 0; !a.isFinished() || !b.isFinished(); turn++) {
      assertTrue(turn < 1_000, "still open after " + turn + " turns; fetched " + fetched.size());
      for (RedisFrontier<String> agent : List.of(a, b)) {
        byAgent.merge(agent, crawlSome(agent, 50, fetched, afterPage), Integer::sum);
      }
      a.heartbeat();
      b.heartbeat();
      clock.advance(Duration.ofSeconds(1)); // past the pauses after an empty read and between checks for the end
    }
    return byAgent;
  }

  /** Fetches up to {@code most} pages, offering each page's links before acknowledging it; returns how many. */
  private static int crawlSome(RedisFrontier<String> agent, int most, Map<String, Integer> fetched,
      Runnable afterPage) {
    int done = 0;
    for (String queue = agent.nextQueue(); queue != null; queue = done < most ? agent.nextQueue() : null) {
      for (Claim<String> c = agent.poll(queue); c != null; c = done < most ? agent.poll(queue) : null) {
        fetched.merge(c.task(), 1, Integer::sum);
        agent.offerAll(links(c.task()));
        agent.complete(c);
        afterPage.run();
        done++;
      }
      agent.releaseQueue(queue);
    }
    return done;
  }

  /**
   * The crawl's slot moves to another master while two agents work it, a few keys at a time as {@code redis-cli
   * --cluster reshard} moves them: the agents follow ASK for keys moved and retry TRYAGAIN while a script's keys are
   * split, and lose nothing.
   */
  @Test
  void theCrawlsSlotMigratedMidCrawlIsFollowedAndNoPageIsLostOrFetchedTwice() throws Exception {
    RedisCluster.Node from = cluster.ownerOf(CrawlKeys.key("moving", "meta"));
    RedisCluster.Node to = cluster.otherThan(from);
    RedisFrontier<String> a = agent(from.uri(), "moving");
    a.offerAll(List.of(page(0)));
    a.seedsQueued();
    RedisFrontier<String> b = agent(to.uri(), "moving");

    Semaphore pages = new Semaphore(0);
    AtomicReference<Throwable> failed = new AtomicReference<>();
    CountDownLatch migrated = new CountDownLatch(1);
    Thread migration = Thread.ofPlatform().unstarted(() -> {
      try {
        pages.acquire(100); // a crawl under way
        // a step each page or so; bounded, as a retried TRYAGAIN waits for the steps
        int slot = ClusterMoves.slotOf(cluster, CrawlKeys.key("moving", "meta"));
        ClusterMoves.migrateSlot(cluster, slot, from, to, 4, () -> {
          try {
            pages.tryAcquire(100, TimeUnit.MILLISECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
      } catch (Throwable e) {
        failed.set(e);
      } finally {
        migrated.countDown();
      }
    });
    migration.start();
    Map<String, Integer> fetched = new HashMap<>();
    crawlToTheEnd(a, b, fetched, pages::release);
    pages.release(PAGES); // the migration's waits end
    assertTrue(migrated.await(2, TimeUnit.MINUTES), "the migration ends");
    assertEquals(null, failed.get(), "the migration failed");
    assertEquals(to, cluster.ownerOf(CrawlKeys.key("moving", "meta")), "the slot moved");
    assertEquals(PAGES, fetched.size(), "every page fetched");
    assertTrue(fetched.values().stream().allMatch(n -> n == 1), "no page fetched twice");
    assertEquals(PAGES, a.stats().admitted());
  }

  @Test
  void severalSeedNodesInOneUriFindTheCluster() throws Exception {
    RedisFrontier<String> agent = agent(cluster.seeds(), "seeds");
    assertEquals(1, agent.offerAll(List.of(page(1), page(1))).cardinality());
    RedisCrawl joined = RedisCrawl.join(cluster.nodes().get(2).uri(), "seeds", clock);
    open.add(joined);
    assertEquals("1", new SharedState(joined).frontierCounters().get("admitted").toString());
  }

  @Test
  void aDatabaseOtherThanZeroIsRefusedOnACluster() {
    SharedCrawlException e = assertThrows(SharedCrawlException.class,
        () -> RedisCrawl.join(cluster.nodes().get(0).uri() + "/1", "any", clock));
    assertEquals("not a Redis URI: '" + cluster.nodes().get(0).uri() + "/1': the database is 1, but a Redis Cluster"
        + " has database 0 only: leave /1 out of the URI (expected redis://[:PASSWORD@]HOST:PORT[/DB], or"
        + " redis://HOST1:PORT1,HOST2:PORT2 for nodes of a Redis Cluster, the password percent-encoded, or rediss://"
        + " for TLS)", e.getMessage());
  }

  @Test
  void severalNodesNamingAPlainRedisAreRefused() throws Exception {
    try (RedisServer plain = RedisServer.start(null)) {
      String uri = "redis://127.0.0.1:" + plain.port() + ",127.0.0.1:" + plain.port();
      SharedCrawlException e = assertThrows(SharedCrawlException.class, () -> RedisCrawl.join(uri, "any", clock));
      assertTrue(e.getMessage().contains("the URI names 2 nodes, but 127.0.0.1:" + plain.port() + " is a Redis"
          + " without cluster mode: name that one server alone"), e.getMessage());
    }
  }
}

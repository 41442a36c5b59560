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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Agents on a real Redis Cluster of three masters: pointed at any node, or at several, they find each shard's slot
 * wherever it is served, and one crawl's keys spread over every master; a URI that does not fit the Redis found is
 * refused in one line.
 */
class RedisClusterAgentsIT {
  private static final int SHARDS = 64;
  private static final Duration LEASE = Duration.ofMinutes(10); // expires only when the test says: none does here
  private static final int PAGES = 1_200;
  private static final int HOSTS = 300;

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
  void twoAgentsOnDifferentNodesFetchEveryPageOnceAndTheCrawlSpreadsOverEveryMaster() throws Exception {
    List<RedisCluster.Node> masters = cluster.masters();
    RedisFrontier<String> a = agent(masters.get(0).uri(), "docs");
    a.offerAll(List.of(page(0)));
    a.seedsQueued();
    RedisFrontier<String> b = agent(masters.get(1).uri(), "docs");

    Map<String, Integer> fetched = new HashMap<>();
    Map<RedisFrontier<String>, Integer> byAgent = new HashMap<>();
    for (int turn = 0; !a.isFinished() || !b.isFinished(); turn++) {
      assertTrue(turn < 1_000, "still open after " + turn + " turns; fetched " + fetched.size());
      for (RedisFrontier<String> agent : List.of(a, b)) {
        byAgent.merge(agent, crawlSome(agent, 50, fetched), Integer::sum);
      }
      a.heartbeat();
      b.heartbeat();
      clock.advance(Duration.ofSeconds(1)); // past the pauses after an empty read and between checks for the end
    }
    assertEquals(PAGES, fetched.size(), "every page fetched");
    assertTrue(fetched.values().stream().allMatch(n -> n == 1), "no page fetched twice");
    assertTrue(byAgent.get(a) > 0 && byAgent.get(b) > 0, "both agents fetched: " + byAgent.values());
    assertEquals(PAGES, a.stats().admitted());
    assertEquals(0, a.stats().queued() + a.stats().inFlight());

    Map<RedisCluster.Node, RedisCluster.Footprint> spread = cluster.footprintPerMaster(CrawlKeys.patterns("docs"));
    long keys = spread.values().stream().mapToLong(RedisCluster.Footprint::keys).sum();
    long bytes = spread.values().stream().mapToLong(RedisCluster.Footprint::bytes).sum();
    for (Map.Entry<RedisCluster.Node, RedisCluster.Footprint> master : spread.entrySet()) {
      assertTrue(master.getValue().keys() >= keys / 5 && master.getValue().bytes() >= bytes / 5,
          "each master holds at least 20% of the crawl's keys and of their memory: " + spread);
    }
  }

  /** Fetches up to {@code most} pages, offering each page's links before acknowledging it; returns how many. */
  private static int crawlSome(RedisFrontier<String> agent, int most, Map<String, Integer> fetched) {
    int done = 0;
    for (String queue = agent.nextQueue(); queue != null; queue = done < most ? agent.nextQueue() : null) {
      for (Claim<String> c = agent.poll(queue); c != null; c = done < most ? agent.poll(queue) : null) {
        fetched.merge(c.task(), 1, Integer::sum);
        agent.offerAll(links(c.task()));
        agent.complete(c);
        done++;
      }
      agent.releaseQueue(queue);
    }
    return done;
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

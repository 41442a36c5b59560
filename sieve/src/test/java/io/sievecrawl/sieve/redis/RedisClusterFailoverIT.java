package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontiers;
import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A master of a real Redis Cluster (three masters, a replica each) killed with SIGKILL while two agents crawl: its
 * replica takes over after the node timeout, and the agents ride through it within their outage grace, fetching
 * every page, and again at most what the writes the dead master had not passed on yet acknowledged.
 */
class RedisClusterFailoverIT {
  private static final int SHARDS = 8;
  private static final Duration LEASE = Duration.ofMinutes(10); // expires only when the test says: none does here
  private static final int PAGES = 600;
  private static final int HOSTS = 6;
  private static final int CLAIM_AHEAD = 8;

  private final List<AutoCloseable> open = new ArrayList<>();
  private final FakeClock clock = new FakeClock();

  @AfterEach
  void closeAgents() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
    open.clear();
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
  void aMasterKilledMidCrawlIsReplacedByItsReplicaAndTheAgentsRideThrough() throws Exception {
    try (RedisCluster cluster = RedisCluster.start(3, 1, Duration.ofSeconds(3))) {
      RedisCluster.Node owner = cluster.ownerOf(CrawlKeys.key("failover", "meta"));
      List<RedisCluster.Node> others = cluster.masters().stream().filter(node -> node != owner).toList();
      RedisFrontier<String> a = agent(others.get(0).uri(), "failover");
      a.offerAll(List.of(page(0)));
      a.seedsQueued();
      RedisFrontier<String> b = agent(others.get(1).uri(), "failover");

      Map<String, Integer> fetched = new HashMap<>();
      boolean[] killed = {false};
      for (int turn = 0; !a.isFinished() || !b.isFinished(); turn++) {
        assertTrue(turn < 1_000, "still open after " + turn + " turns; fetched " + fetched.size());
        for (RedisFrontier<String> agent : List.of(a, b)) {
          int done = 0;
          for (String queue = agent.nextQueue(); queue != null; queue = done < 50 ? agent.nextQueue() : null) {
            for (Claim<String> c = agent.poll(queue); c != null; c = done < 50 ? agent.poll(queue) : null) {
              fetched.merge(c.task(), 1, Integer::sum);
              agent.offerAll(links(c.task()));
              agent.complete(c);
              done++;
              if (fetched.size() == 150 && !killed[0]) {
                cluster.kill(owner); // the next command meets a dead master
                killed[0] = true;
              }
            }
            agent.releaseQueue(queue);
          }
        }
        a.heartbeat();
        b.heartbeat();
        clock.advance(Duration.ofSeconds(1)); // past the pauses after an empty read and between checks for the end
      }
      closeAgents(); // while the cluster runs: they hand their leases back
      assertTrue(killed[0]);
      assertNotEquals(owner, cluster.ownerOf(CrawlKeys.key("failover", "meta")), "a replica took over");
      assertEquals(PAGES, fetched.size(), "every page fetched");
      long twice = fetched.values().stream().filter(n -> n > 1).count();
      System.out.printf("failover: %d of %d pages fetched twice%n", twice, PAGES);
      assertTrue(twice <= 2 * CLAIM_AHEAD, twice + " pages fetched twice");
    }
  }
}

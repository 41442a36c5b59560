package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A master of a real Redis Cluster (three masters, a replica each) killed with SIGKILL while two agents crawl: its
 * replica takes over after the node timeout, and the agents ride through it within their outage grace, fetching
 * every page, again at most the pages in hand when the master died (what the writes it had not passed on yet
 * acknowledged). Each agent tells of the failover in exactly one WARN naming the dead master, and of its end in one
 * INFO, whether its commands failed, waited on the dead master, or found its replica already in charge.
 */
class RedisClusterFailoverIT {
  private static final int SHARDS = 8;
  private static final int PAGES = 600;
  private static final int HOSTS = 6;
  /** Pages in hand at once: each of the two agents fetches one at a time. */
  private static final int CONCURRENCY = 2;

  private final FakeClock clock = new FakeClock();
  private final ClusterAgents agents = new ClusterAgents(clock, SHARDS, PAGES, HOSTS);
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger redisLog = (Logger) LoggerFactory.getLogger(OutageRetry.class.getPackageName());

  @BeforeEach
  void captureLog() {
    logged.start();
    redisLog.addAppender(logged);
    redisLog.setLevel(Level.INFO); // the test's logback configuration keeps to WARN
  }

  @AfterEach
  void releaseLog() {
    redisLog.detachAppender(logged);
    redisLog.setLevel(null);
  }

  @AfterEach
  void closeAgents() throws Exception {
    agents.close();
  }

  @Test
  void aMasterKilledMidCrawlIsReplacedByItsReplicaAndTheAgentsRideThrough() throws Exception {
    try (RedisCluster cluster = RedisCluster.start(3, 1, Duration.ofSeconds(3))) {
      RedisCluster.Node owner = cluster.ownerOf(CrawlKeys.key("failover", "meta"));
      List<RedisCluster.Node> others = cluster.masters().stream().filter(node -> node != owner).toList();
      String uriA = others.get(0).uri();
      String uriB = others.get(1).uri();
      RedisFrontier<String> a = agents.agent(uriA, "failover");
      a.offerAll(List.of(agents.page(0)));
      a.seedsQueued();
      RedisFrontier<String> b = agents.agent(uriB, "failover");

      RedisCluster.Node replica = ClusterMoves.replicaOf(cluster, owner);
      Map<String, Integer> fetched = new HashMap<>();
      long[] killedAt = {0};
      long[] promotedAt = {0}; // shown beside the log lines: how long the agents waited past the promotion
      Thread promotion = new Thread(() -> {
        try {
          if (RedisCluster.await(Duration.ofMinutes(1), () -> cluster.withNode(replica, redis -> redis.sync()
              .info("replication")).contains("role:master"))) {
            promotedAt[0] = System.currentTimeMillis();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      agents.crawlToTheEnd(a, b, fetched, (page, ack) -> {
        ack.run();
        if (fetched.size() == 150 && killedAt[0] == 0) {
          cluster.kill(owner); // the next command meets a dead master
          killedAt[0] = System.currentTimeMillis();
          promotion.start();
        }
      });
      promotion.join();
      agents.close(); // while the cluster runs: they hand their leases back
      assertTrue(killedAt[0] > 0);
      assertNotEquals(owner, cluster.ownerOf(CrawlKeys.key("failover", "meta")), "a replica took over");
      assertEquals(PAGES, fetched.size(), "every page fetched");
      long twice = fetched.values().stream().filter(n -> n > 1).count();
      List<String> lines = logged.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)
          || e.getLoggerName().equals(OutageRetry.class.getName()))
          .map(e -> String.format("%+.1fs %s %s", (e.getTimeStamp() - killedAt[0]) / 1000.0, e.getLevel(),
              e.getFormattedMessage())).toList();
      System.out.printf("failover: %d of %d pages fetched twice; replica promoted %+.1fs; WARN and outage lines (time"
          + " since the kill):%n  %s%n", twice, PAGES, (promotedAt[0] - killedAt[0]) / 1000.0,
          String.join("\n  ", lines));
      assertTrue(twice <= CONCURRENCY, twice + " pages fetched twice, more than the " + CONCURRENCY + " in hand");
      String dead = "master " + owner + " is unreachable";
      for (String uri : List.of(uriA, uriB)) { // every key of the crawl was on the dead master
        assertEquals(1, told(Level.WARN, uri), "one WARN by the agent on " + uri + ": " + lines);
        assertTrue(logged.list.stream().anyMatch(e -> e.getLevel() == Level.WARN
            && e.getFormattedMessage().startsWith("Redis at " + uri + " ")
            && e.getFormattedMessage().contains(dead)), "the WARN names the dead master: " + lines);
        assertEquals(1, told(Level.INFO, uri), "an INFO for the WARN by the agent on " + uri + ": " + lines);
      }
      assertEquals(2, logged.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).count(),
          "no other warning: " + lines);
    }
  }

  /**
   * A failover that lost the acknowledgement of a page while no command failed (the agent sent none while the master
   * was away, and Lettuce took the next to the replica once it read the new layout): the agent notices the new
   * layout and puts the page back, so the crawl still ends, that page fetched twice. The lost acknowledgement is
   * made by hand: every key as it was before it is written back, then the replica takes over gracefully.
   */
  @Test
  void anAcknowledgementLostInAFailoverNoCommandSawIsPutBackAndTheCrawlEnds() throws Exception {
    try (RedisCluster cluster = RedisCluster.start(3, 1, Duration.ofSeconds(3))) {
      List<RedisCluster.Node> masters = cluster.masters();
      RedisFrontier<String> a = agents.agent(masters.get(0).uri(), "lost");
      a.offerAll(List.of(agents.page(0)));
      a.seedsQueued();
      RedisFrontier<String> b = agents.agent(masters.get(1).uri(), "lost");

      Map<String, Integer> fetched = new HashMap<>();
      String[] lost = {null};
      String[] lostShardKey = {null};
      RedisCluster.Node[] owner = {null};
      agents.crawlToTheEnd(a, b, fetched, (page, ack) -> {
        if (fetched.size() < 100 || lost[0] != null) {
          ack.run();
          return;
        }
        // the master of the page's shard, where its acknowledgement is written
        int shard = RedisFrontier.shardOf(page.substring(0, page.indexOf('/', 8)), SHARDS);
        lost[0] = page;
        lostShardKey[0] = CrawlKeys.shardKey("lost", true, shard, "shard:" + shard);
        owner[0] = cluster.ownerOf(lostShardKey[0]);
        ClusterMoves.Snapshot before = ClusterMoves.snapshot(cluster, owner[0]);
        ack.run();
        before.restore();
        ClusterMoves.failOver(cluster, ClusterMoves.replicaOf(cluster, owner[0]));
      });
      agents.close();
      assertNotEquals(owner[0], cluster.ownerOf(lostShardKey[0]), "the replica took over");
      assertEquals(PAGES, fetched.size(), "every page fetched");
      Map<String, Integer> twice = new HashMap<>(fetched);
      twice.values().removeIf(n -> n == 1);
      assertEquals(Map.of(lost[0], 2), twice, "the page whose acknowledgement was lost is fetched again, no other");
    }
  }

  /** Lines at {@code level} about the outage by the agent connected through {@code uri}. */
  private long told(Level level, String uri) {
    return logged.list.stream().filter(e -> e.getLoggerName().equals(OutageRetry.class.getName()))
        .filter(e -> e.getLevel() == level && e.getFormattedMessage().startsWith("Redis at " + uri + " "))
        .count();
  }
}

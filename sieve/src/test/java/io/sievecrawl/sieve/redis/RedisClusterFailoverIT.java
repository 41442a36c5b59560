package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontiers;
import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
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
 * acknowledged). Each agent tells of the outage in at most one WARN, and of its end in one INFO; none when Lettuce
 * held the commands meant for the dead master until a topology refresh sent them to its replica, with no failure to
 * see (a pause of up to the node timeout plus the refresh period).
 */
class RedisClusterFailoverIT {
  private static final int SHARDS = 8;
  private static final Duration LEASE = Duration.ofMinutes(10); // expires only when the test says: none does here
  private static final int PAGES = 600;
  private static final int HOSTS = 6;
  /** Pages in hand at once: each of the two agents fetches one at a time. */
  private static final int CONCURRENCY = 2;

  private final List<AutoCloseable> open = new ArrayList<>();
  private final FakeClock clock = new FakeClock();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger redisLog = (Logger) LoggerFactory.getLogger(OutageRetry.class.getPackageName());

  @BeforeEach
  void captureLog() {
    logged.start();
    redisLog.addAppender(logged);
  }

  @AfterEach
  void closeAgents() throws Exception {
    redisLog.detachAppender(logged);
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
  void aMasterKilledMidCrawlIsReplacedByItsReplicaAndTheAgentsRideThrough() throws Exception {
    try (RedisCluster cluster = RedisCluster.start(3, 1, Duration.ofSeconds(3))) {
      RedisCluster.Node owner = cluster.ownerOf(CrawlKeys.key("failover", "meta"));
      List<RedisCluster.Node> others = cluster.masters().stream().filter(node -> node != owner).toList();
      String uriA = others.get(0).uri();
      String uriB = others.get(1).uri();
      RedisFrontier<String> a = agent(uriA, "failover");
      a.offerAll(List.of(page(0)));
      a.seedsQueued();
      RedisFrontier<String> b = agent(uriB, "failover");

      Map<String, Integer> fetched = new HashMap<>();
      boolean[] killed = {false};
      for (int turn = 0; !a.isFinished() || !b.isFinished(); turn++) {
        assertTrue(turn < 1_000, "still open after " + turn + " turns; fetched " + fetched.size());
        for (RedisFrontier<String> agent : List.of(a, b)) {
          int done = 0;
          for (String queue = agent.nextQueue(); queue != null; queue = done < 50 ? agent.nextQueue() : null) {
            for (Claim<String> c = agent.poll(queue); c != null; c = done < 50 ? agent.poll(queue) : null) {
              fetched.merge(c.task(), 1, Integer::sum);
              agent.offerAll(links(c.task())); // a page's links before its acknowledgement
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
      List<String> lines = logged.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)
          || e.getLoggerName().equals(OutageRetry.class.getName()))
          .map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
      System.out.printf("failover: %d of %d pages fetched twice; WARN and outage lines:%n  %s%n", twice, PAGES,
          String.join("\n  ", lines));
      assertTrue(twice <= CONCURRENCY, twice + " pages fetched twice, more than the " + CONCURRENCY + " in hand");
      long warnings = 0;
      for (String uri : List.of(uriA, uriB)) {
        long warned = told(Level.WARN, uri);
        assertTrue(warned <= 1, "at most one WARN by the agent on " + uri + ": " + lines);
        assertEquals(warned, told(Level.INFO, uri), "an INFO for the WARN by the agent on " + uri + ": " + lines);
        warnings += warned;
      }
      assertEquals(warnings, logged.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).count(),
          "no other warning: " + lines);
    }
  }

  /** Lines at {@code level} about the outage by the agent connected through {@code uri}. */
  private long told(Level level, String uri) {
    return logged.list.stream().filter(e -> e.getLoggerName().equals(OutageRetry.class.getName()))
        .filter(e -> e.getLevel() == level && e.getFormattedMessage().startsWith("Redis at " + uri + " "))
        .count();
  }
}

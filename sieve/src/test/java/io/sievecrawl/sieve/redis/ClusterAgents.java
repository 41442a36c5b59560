package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontiers;
import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Agents of test crawls on a Redis Cluster, driven by the test in turns on its own clock: a crawl of {@code pages}
 * pages over {@code hosts} hosts, each page linking to its three children in a tree over every page and to its parent
 * again, so that every page is reachable and most links are seen twice. The agents it opens are closed by
 * {@link #close}, last opened first.
 */
final class ClusterAgents {
  /** Leases expire only when a test says: none does in these crawls. */
  static final Duration LEASE = Duration.ofMinutes(10);

  /** Acknowledges a page: runs the acknowledgement it is given, and whatever a test does around it. */
  interface Acknowledging {
    void ack(String page, Runnable acknowledgement) throws Exception;
  }

  private final FakeClock clock;
  private final int shards;
  private final int pages;
  private final int hosts;
  private final List<AutoCloseable> open = new ArrayList<>();

  ClusterAgents(FakeClock clock, int shards, int pages, int hosts) {
    this.clock = clock;
    this.shards = shards;
    this.pages = pages;
    this.hosts = hosts;
  }

  /** An agent of the crawl {@code name} (started if new: n = 100,000, p = 0.001, the exact store) through {@code uri}. */
  RedisFrontier<String> agent(String uri, String name) throws SharedCrawlException {
    RedisCrawl crawl = RedisCrawl.startOrJoin(uri, name, 100_000, 0.001, true, shards, "", clock, clock);
    open.add(crawl);
    crawl.setOutageGrace(Duration.ofMinutes(2)); // timed on the test's clock, which moves only between turns
    RedisFrontier<String> frontier = RedisFrontier.openWithoutHeartbeat(crawl, Frontiers.STRINGS, url -> url,
        url -> url.substring(0, url.indexOf('/', 8)), LEASE, "n");
    open.add(frontier);
    return frontier;
  }

  /** Keeps {@code closeable} to close with the agents. */
  <C extends AutoCloseable> C closing(C closeable) {
    open.add(closeable);
    return closeable;
  }

  String page(int i) {
    return "https://h" + (i % hosts) + ".example/p" + i;
  }

  /** A page's links: its three children in a tree over every page (so all are reachable), and its parent again. */
  List<String> links(String url) {
    int i = Integer.parseInt(url.substring(url.lastIndexOf("/p") + 2));
    List<String> links = new ArrayList<>();
    for (int child = 3 * i + 1; child <= 3 * i + 3 && child < pages; child++) {
      links.add(page(child));
    }
    links.add(page(i / 3));
    return links;
  }

  /**
   * Both agents take turns until the crawl is finished, each fetching up to 50 pages a turn (a page's links offered
   * before its acknowledgement, which goes through {@code acknowledging}) and beating after each turn; the test's
   * clock moves a second a turn. Counts each page's fetches in {@code fetched}; returns the pages each agent fetched.
   */
  Map<RedisFrontier<String>, Integer> crawlToTheEnd(RedisFrontier<String> a, RedisFrontier<String> b,
      Map<String, Integer> fetched, Acknowledging acknowledging) throws Exception {
    Map<RedisFrontier<String>, Integer> byAgent = new HashMap<>();
    for (int turn = 0; !a.isFinished() || !b.isFinished(); turn++) {
      assertTrue(turn < 1_000, "still open after " + turn + " turns; fetched " + fetched.size());
      for (RedisFrontier<String> agent : List.of(a, b)) {
        byAgent.merge(agent, crawlSome(agent, 50, fetched, acknowledging), Integer::sum);
      }
      a.heartbeat();
      b.heartbeat();
      clock.advance(Duration.ofSeconds(1)); // past the pauses after an empty read and between checks for the end
    }
    return byAgent;
  }

  /** Fetches up to {@code most} pages, offering each page's links before acknowledging it; returns how many. */
  private int crawlSome(RedisFrontier<String> agent, int most, Map<String, Integer> fetched,
      Acknowledging acknowledging) throws Exception {
    int done = 0;
    for (String queue = agent.nextQueue(); queue != null; queue = done < most ? agent.nextQueue() : null) {
      for (Claim<String> c = agent.poll(queue); c != null; c = done < most ? agent.poll(queue) : null) {
        fetched.merge(c.task(), 1, Integer::sum);
        agent.offerAll(links(c.task()));
        Claim<String> claim = c;
        acknowledging.ack(c.task(), () -> agent.complete(claim));
        done++;
      }
      agent.releaseQueue(queue);
    }
    return done;
  }

  /** Closes the agents opened and their crawls, last first; they hand their leases back if the cluster runs. */
  void close() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
    open.clear();
  }
}

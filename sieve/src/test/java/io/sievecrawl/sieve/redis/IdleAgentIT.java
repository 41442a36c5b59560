package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.RedisClient;
import io.sievecrawl.sieve.Frontiers;
import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An agent with nothing to do, beside one that works one origin (a site crawled by two agents: one origin is one
 * shard, worked by one agent): what it sends Redis over a span of its own clock, with as many workers as a crawl has
 * asking it for work at once, on one Redis and on a cluster of three masters; and how soon it finds work another
 * agent lines up in one of its shards. The workers run on threads of their own, in steps of the test's clock, so
 * that they race past the agent's pauses together as a crawl's do.
 */
class IdleAgentIT {
  private static final int SHARDS = 64;
  private static final int WORKERS = 8;
  private static final Duration STEP = Duration.ofMillis(10);
  private static final Duration SPAN = Duration.ofSeconds(10);
  /** How often an agent with no lease out checks for the end of the crawl while it has work to do. */
  private static final Duration END_CHECK = Duration.ofNanos(EndCheck.FINISHED_CHECK_NANOS);
  /** How often it checks once it has held no work and found none for a while. */
  private static final Duration IDLE_END_CHECK = Duration.ofNanos(EndCheck.IDLE_PAUSE_NANOS);
  /** What {@link #step} awaits when it awaits the end of the crawl. */
  private static final String END = "the end";
  private static final Duration LONGEST_PAUSE = Duration.ofNanos(LinePauses.LONGEST_PAUSE_NANOS);

  private static RedisServer redis;
  private static RedisCluster cluster;
  private final FakeClock clock = new FakeClock();
  private final List<AutoCloseable> open = new ArrayList<>();
  private final ExecutorService workers = Executors.newFixedThreadPool(WORKERS);

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisServer.start(null);
    cluster = RedisCluster.start();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @AfterEach
  void closeAgents() throws Exception {
    workers.shutdownNow();
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
  }

  /** Where the test's crawl lives: the URI agents are given, the nodes whose commands are counted, a key's value. */
  private record Target(String uri, List<String> nodes, Function<String, String> get) {}

  private static Target oneRedis() {
    return new Target(redis.uri(), List.of(redis.uri()), key -> onNode(redis.uri(), c -> c.sync().get(key)));
  }

  private static Target threeMasters() {
    List<String> masters = cluster.masters().stream().map(RedisCluster.Node::uri).toList();
    return new Target(masters.get(1), masters,
        key -> cluster.withNode(cluster.ownerOf(key), c -> c.sync().get(key)));
  }

  @Test
  void anIdleAgentOnOneRedisSendsLittleAndFindsNewWorkSoon() throws Exception {
    idleAgentSendsLittleAndFindsNewWorkSoon(oneRedis(), "idle-one", 1);
  }

  @Test
  void anIdleAgentOnAClusterSendsLittleAndFindsNewWorkSoon() throws Exception {
    idleAgentSendsLittleAndFindsNewWorkSoon(threeMasters(), "idle-cluster", SHARDS / 2);
  }

  /**
   * Agent A works one origin; agent B, holding half the shards, none with work, is asked for work by its workers all
   * at once every step of its clock, and checks for the end as a worker with no lease out does, over {@link #SPAN}.
   * What Redis runs meanwhile (every command, those of scripts too) stays within what one end check every 200 ms and
   * one ask of each group of lines per pause cost, both pauses grown to their longest. Then A lines up an origin in a
   * shard of B's: B finds it within the longest pause, with end checks and without (its workers busy elsewhere); once
   * B has had work, it checks for the end after the short pause again. Last, A acknowledges the crawl's last task: the
   * idle B sees the end within the longest pause.
   *
   * @param groups the groups of B's lines asked apart (a cluster: a shard each; one Redis: all in one script)
   */
  private void idleAgentSendsLittleAndFindsNewWorkSoon(Target target, String name, int groups) throws Exception {
    RedisCrawl crawlA = crawl(target, name);
    RedisFrontier<String> a = frontier(crawlA);
    a.offerAll(List.of("https://busy.example/"));
    a.seedsQueued();
    RedisCrawl crawlB = crawl(target, name);
    RedisFrontier<String> b = frontier(crawlB);
    a.heartbeat(); // hands back the shards beyond its share, keeping the one with work
    b.heartbeat(); // takes them
    assertNotNull(a.nextQueue(), "A holds the shard with work");

    long before = commands(target);
    step(b, SPAN, true, null);
    long sent = commands(target) - before;
    // the end check: "seeding" read, then one pass over the shards (A's task is open, so no second pass)
    long endCheck = 1 + (crawlB.spread() ? SHARDS : 1 + SHARDS);
    // an ask of a group of lines: the script, and per shard a read of its lease and a pop of its line
    long ask = 1 + 2L * (SHARDS / 2) / groups;
    long endChecks = SPAN.toNanos() / IDLE_END_CHECK.toNanos() + 4; // at once, after 400, 800 ms, then each second
    long asks = groups * (SPAN.toNanos() / LONGEST_PAUSE.toNanos() + 5); // 100, 200, 400, 800 ms, then a second each
    long bound = endChecks * endCheck + asks * ask;
    assertTrue(sent <= bound, "the idle agent made Redis run " + sent + " commands in " + SPAN
        + " of its clock; at most " + bound + " expected (" + endChecks + " end checks, " + asks + " asks)");

    String origin = originInAShardOf(crawlB, target);
    a.offerAll(List.of(origin + "/page"));
    Duration found = step(b, LONGEST_PAUSE.multipliedBy(2), true, origin);
    assertTrue(found.compareTo(IDLE_END_CHECK.plus(STEP.multipliedBy(2))) <= 0, "found after " + found);

    b.complete(b.poll(origin)); // B fetches the page, and is idle again
    b.releaseQueue(origin);
    long beforeCheck = commands(target);
    clock.advance(END_CHECK);
    b.isFinished(); // B had work: the short pause is back
    assertTrue(commands(target) - beforeCheck >= endCheck, "no end check " + END_CHECK + " after B had work");
    step(b, SPAN, false, null); // the pauses grow to the longest
    String another = originInAShardOf(crawlB, target, origin);
    a.offerAll(List.of(another + "/page"));
    found = step(b, LONGEST_PAUSE.multipliedBy(2), false, another);
    assertTrue(found.compareTo(LONGEST_PAUSE.plus(STEP.multipliedBy(2))) <= 0, "found after " + found + " without end checks");
    b.complete(b.poll(another));
    b.releaseQueue(another);
    step(b, IDLE_END_CHECK.multipliedBy(3), true, null); // idle again: the end check's pause grows to the longest
    a.complete(a.poll("https://busy.example")); // the crawl's last task
    found = step(b, IDLE_END_CHECK.multipliedBy(2), true, END);
    assertTrue(found.compareTo(IDLE_END_CHECK.plus(STEP.multipliedBy(2))) <= 0, "the end seen after " + found);
  }

  /**
   * Runs the agent's workers for up to {@code span} of its clock, a {@link #STEP} at a time, every worker asking for
   * an origin each step (and checking for the end, if {@code endChecks}), all at once. Returns when {@code awaited}
   * was checked out (or, if it is {@link #END}, the end was seen), after how long (or after {@code span} when it is
   * {@code null}); fails if it was not.
   */
  private Duration step(RedisFrontier<String> agent, Duration span, boolean endChecks, String awaited)
      throws Exception {
    long steps = span.toNanos() / STEP.toNanos();
    AtomicReference<String> found = new AtomicReference<>();
    long[] step = {0};
    AtomicBoolean done = new AtomicBoolean();
    CyclicBarrier turn = new CyclicBarrier(WORKERS, () -> { // every worker has had its turn: the clock moves
      step[0]++;
      clock.advance(STEP);
      done.set(step[0] == steps || awaited != null && found.get() != null);
    });
    List<Future<?>> running = new ArrayList<>();
    for (int w = 0; w < WORKERS; w++) {
      running.add(workers.submit(() -> {
        try {
          while (!done.get()) { // read by all alike after each turn
            String origin = agent.nextQueue();
            if (origin != null) {
              assertEquals(awaited, origin, "only the origin lined up is in B's lines");
              found.set(origin);
            } else if (endChecks && agent.isFinished() && END.equals(awaited)) {
              found.set(END);
            }
            await(turn);
          }
          return null;
        } catch (Throwable e) {
          done.set(true); // the others stop too
          turn.reset();
          throw e;
        }
      }));
    }
    for (Future<?> r : running) {
      r.get(2, TimeUnit.MINUTES);
    }
    if (awaited == null) {
      return span;
    }
    assertEquals(awaited, found.get(), "B never found " + awaited);
    return STEP.multipliedBy(step[0]);
  }

  private static void await(CyclicBarrier turn) throws InterruptedException {
    try {
      turn.await(2, TimeUnit.MINUTES);
    } catch (BrokenBarrierException | java.util.concurrent.TimeoutException e) {
      // a worker failed: the others stop (done)
    }
  }

  private String originInAShardOf(RedisCrawl crawl, Target target, String... not) {
    for (int h = 0; ; h++) {
      String origin = "https://h" + h + ".example";
      int shard = crawl.keys().shardOf(origin);
      if (!List.of(not).contains(origin) && crawl.agentId().equals(target.get().apply(crawl.keys().lease(shard)))) {
        return origin;
      }
    }
  }

  private RedisCrawl crawl(Target target, String name) throws SharedCrawlException {
    RedisCrawl crawl = RedisCrawl.startOrJoin(target.uri(), name, 100_000, 0.001, true, SHARDS, "", clock, clock);
    open.add(crawl);
    return crawl;
  }

  private RedisFrontier<String> frontier(RedisCrawl crawl) {
    RedisFrontier<String> frontier = RedisFrontier.openWithoutHeartbeat(crawl, Frontiers.STRINGS, url -> url,
        url -> url.substring(0, url.indexOf('/', 8)), ClusterAgents.LEASE, "n");
    open.add(frontier);
    return frontier;
  }

  /** Every command the nodes have run so far (INFO commandstats: a script's commands too), the test's INFO aside. */
  private static long commands(Target target) {
    long calls = 0;
    for (String node : target.nodes()) {
      String stats = onNode(node, c -> c.sync().info("commandstats"));
      for (String line : stats.split("\r?\n")) {
        if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_info:")) {
          calls += Long.parseLong(line.substring(line.indexOf("calls=") + 6, line.indexOf(',')));
        }
      }
    }
    return calls;
  }

  private static <R> R onNode(String uri, Function<io.lettuce.core.api.StatefulRedisConnection<String, String>, R> f) {
    RedisClient client = RedisClient.create(uri);
    try (var connection = client.connect()) {
      return f.apply(connection);
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }
}

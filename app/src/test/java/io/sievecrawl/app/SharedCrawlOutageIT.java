package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.bench.SyntheticSite;
import io.sievecrawl.sieve.redis.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent in a child JVM while its Redis restarts (appendonly, same port and directory) and loads its data again:
 * it waits and finishes the crawl, every page fetched once; while Redis stays away past the grace period, it ends
 * with exit 9 saying how to continue.
 */
class SharedCrawlOutageIT {
  private static final int PAGES = 400;

  @TempDir
  Path dir;

  @Test
  void anAgentRidesOutARedisRestartAndFetchesEveryPageOnce() throws Exception {
    Path data = Files.createDirectories(dir.resolve("redis"));
    try (RedisServer redis = RedisServer.startPersistent(data);
        SyntheticSite site = SyntheticSite.start(PAGES, 5, 10)) { // one origin, one request at a time: seconds
      Path results = dir.resolve("out.jsonl");
      Path log = dir.resolve("agent.log");
      Process agent = agent(site, redis, "restart", results, log, "--set", "frontier.lease-ttl=1s");
      waitFor(agent, () -> lines(results) >= 50, log);

      redis.rewriteAof(); // the data in the AOF's RDB base, which loads as slowly as --key-load-delay says
      long loadDelayMicros = 2_000_000 / Math.max(1, redis.keys()); // about 2 s answering LOADING
      redis.stop();
      waitFor(agent, () -> count(log, "unreachable (") == 1, log); // the agent noticed, and waits
      Thread.sleep(2_000); // the outage itself: it outlasts the 1 s leases, which expire meanwhile
      redis.startAgain(List.of("--key-load-delay", Long.toString(loadDelayMicros),
          "--loading-process-events-interval-bytes", "1024")); // answering LOADING while it loads, not silence
      assertTrue(redis.loading(), "Redis answers LOADING for a while");

      assertTrue(agent.waitFor(3, TimeUnit.MINUTES), "the agent ends");
      assertEquals(0, agent.exitValue(), Files.readString(dir.resolve("stderr.txt")) + Files.readString(log));
      assertEquals(0, site.pagesNeverServed(), "every page fetched");
      assertEquals(0, site.repeatedRequests(), "none twice");
      assertEquals(PAGES, ResultRecords.urls(results).size(), "every page has its one record");
      assertEquals(PAGES, Files.readAllLines(results).size());
      assertEquals(1, count(log, "unreachable ("), "one warning");
      assertEquals(1, count(log, "answers again"), "one notice");
      assertEquals(0, count(log, "lost the lease"), Files.readString(log));
    }
  }

  /**
   * Redis killed and started again from a snapshot older than the crawl's last writes (an RDB saved mid-crawl): the
   * snapshot holds tasks in its flight hashes under the id of the agent, alive, that has done them since. The agent
   * puts back what it does not hold, and the crawl ends by itself with every page fetched; URLs admitted after the
   * snapshot come back through the pages fetched again.
   */
  @Test
  void aCrawlOnARedisRestoredFromAnOlderSnapshotEndsWithEveryPageFetched() throws Exception {
    Path data = Files.createDirectories(dir.resolve("redis"));
    try (RedisServer redis = RedisServer.startSnapshotting(data);
        SyntheticSite first = SyntheticSite.start(1_000, 5, 5); SyntheticSite second = SyntheticSite.start(1_000, 5, 5)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), first.rootUrl() + "\n" + second.rootUrl() + "\n");
      Path results = dir.resolve("out.jsonl");
      Path log = dir.resolve("agent.log");
      Process agent = ChildProcess.start(List.of(), dir.resolve("stderr.txt"), "crawl", seeds.toString(), "--redis",
          redis.uri(), "--crawl-name", "restored", "-o", results.toString(), "--log-file", log.toString(), "--delay",
          "0ms", "--host-concurrency", "1", "--set", "frontier.lease-ttl=3s");
      waitFor(agent, () -> lines(results) >= 150, log);
      redis.save();
      Path snapshot = Files.copy(data.resolve("dump.rdb"), dir.resolve("older.rdb"));
      java.util.Map<String, String> savedBeats = heartbeats(redis, "restored");
      long saved = lines(results);
      // the agent goes on, and writes a heartbeat the snapshot does not hold, as in any crawl that goes on a while
      waitFor(agent, () -> lines(results) >= saved + 150 && !heartbeats(redis, "restored").equals(savedBeats), log);
      redis.kill();
      Files.copy(snapshot, data.resolve("dump.rdb"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      redis.startAgain();

      assertTrue(agent.waitFor(2, TimeUnit.MINUTES), "the agent ends: " + Files.readString(log));
      assertEquals(0, agent.exitValue(), Files.readString(dir.resolve("stderr.txt")) + Files.readString(log));
      assertEquals(0, first.pagesNeverServed(), "every page of the first site fetched");
      assertEquals(0, second.pagesNeverServed(), "every page of the second site fetched");
      assertEquals(2_000, ResultRecords.urls(results).size(), "every page has a record");
      assertEquals(1, count(log, "lost the shared crawl's writes"), Files.readString(log));
      assertTrue(count(log, "tasks left in flight that this agent no longer holds") > 0, Files.readString(log));
    }
  }

  @Test
  void anAgentGivesUpWhenRedisStaysAwayPastTheGraceAndSaysHowToContinue() throws Exception {
    try (RedisServer redis = RedisServer.start(null); SyntheticSite site = SyntheticSite.start(PAGES, 5, 10)) {
      Path results = dir.resolve("out.jsonl");
      Path log = dir.resolve("agent.log");
      Process agent = agent(site, redis, "gone", results, log, "--set", "frontier.redis-outage-grace=2s");
      waitFor(agent, () -> lines(results) >= 20, log);
      redis.stop();

      assertTrue(agent.waitFor(1, TimeUnit.MINUTES), "the agent ends");
      String said = Files.readString(dir.resolve("stderr.txt"));
      assertEquals(ExitCodes.SHARED, agent.exitValue(), said);
      assertTrue(said.contains("sievecrawl: Redis at " + redis.uri() + " has been unreachable for 2s ("), said);
      assertTrue(said.contains("); 'sievecrawl join --redis " + redis.uri() + " --crawl-name gone' continues the"
          + " crawl once it is back"), said);
      assertFalse(said.contains("internal error") || said.contains("\tat "), said);
      assertEquals(1, count(log, "unreachable ("), "one warning, not one per command: " + Files.readString(log));
    }
  }

  private Process agent(SyntheticSite site, RedisServer redis, String name, Path results, Path log,
      String... more) throws IOException {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
    List<String> args = new java.util.ArrayList<>(List.of("crawl", seeds.toString(), "--redis", redis.uri(),
        "--crawl-name", name, "-o", results.toString(), "--log-file", log.toString(), "--delay", "0ms"));
    args.addAll(List.of(more));
    return ChildProcess.start(List.of(), dir.resolve("stderr.txt"), args.toArray(String[]::new));
  }

  private interface Condition {
    boolean holds() throws IOException;
  }

  /** Waits until {@code condition} holds, failing if the agent ends first. */
  private static void waitFor(Process agent, Condition condition, Path log) throws Exception {
    while (!condition.holds()) {
      if (agent.waitFor(20, TimeUnit.MILLISECONDS)) {
        throw new AssertionError("the agent ended early, exit " + agent.exitValue() + "\n"
            + (Files.exists(log) ? Files.readString(log) : ""));
      }
    }
  }

  /** The agents' heartbeats in the shared crawl {@code name}, as Redis holds them now. */
  private static java.util.Map<String, String> heartbeats(RedisServer redis, String name) {
    try (var client = io.lettuce.core.RedisClient.create(redis.uri()); var connection = client.connect()) {
      return connection.sync().hgetall("sievecrawl:{" + name + "}:agents");
    }
  }

  private static long lines(Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    long n = 0;
    for (byte b : Files.readAllBytes(file)) {
      n += b == '\n' ? 1 : 0;
    }
    return n;
  }

  private static long count(Path log, String text) throws IOException {
    return Files.exists(log) ? Files.readAllLines(log).stream().filter(l -> l.contains(text)).count() : 0;
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.bench.SyntheticSite;
import io.sievecrawl.crawler.home.SharedCrawls;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.redis.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three agents in child JVMs share a crawl of eight loopback sites through a real redis-server; one is SIGKILLed
 * midway. Every page is fetched, one origin is never fetched by two agents at once (checked by each server), and
 * only the killed agent's pages in flight are fetched twice.
 */
class SharedCrawlIT {
  private static final int SITES = 8;
  private static final int PAGES_PER_SITE = 250;
  private static final int CONCURRENCY = 4;

  @TempDir
  Path dir;

  @Test
  void aPasswordFromTheEnvironmentIsUsedAndNeverWrittenOut() throws Exception {
    try (RedisServer redis = RedisServer.start("s3cret-pw"); SyntheticSite site = SyntheticSite.start(20, 3)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Path log = dir.resolve("agent.log");
      Path stderr = dir.resolve("stderr.txt");
      Process agent = ChildProcess.start(Main.class, List.of(), Map.of("SIEVECRAWL_REDIS_PASSWORD", "s3cret-pw"),
          stderr, "crawl", seeds.toString(), "--redis", "redis://127.0.0.1:" + redis.port() + "/0", "--crawl-name",
          "pw", "-o", dir.resolve("out.jsonl").toString(), "--log-file", log.toString(), "--delay", "0ms");
      assertTrue(agent.waitFor(3, TimeUnit.MINUTES));
      assertEquals(0, agent.exitValue(), Files.readString(stderr));
      assertEquals(20, Files.readAllLines(dir.resolve("out.jsonl")).size());
      assertTrue(!Files.readString(log).contains("s3cret-pw") && !Files.readString(stderr).contains("s3cret-pw"),
          "the password is in no log");

      Process shownWrong = ChildProcess.start(Main.class, List.of(), Map.of(), stderr, "join", "--redis",
          "redis://:wrong-pw@127.0.0.1:" + redis.port() + "/0", "--crawl-name", "pw", "-o",
          dir.resolve("out2.jsonl").toString(), "--log-file", log.toString());
      assertTrue(shownWrong.waitFor(3, TimeUnit.MINUTES));
      assertEquals(ExitCodes.SHARED, shownWrong.exitValue());
      String said = Files.readString(stderr);
      assertTrue(said.contains("redis://***@127.0.0.1:" + redis.port()) && !said.contains("wrong-pw"), said);
    }
  }

  /** An agent that starts or joins a shared crawl with another n or p is refused in one line, before any fetch. */
  @Test
  void anAgentWithAnotherNOrPIsRefusedInOneLine() throws Exception {
    try (RedisServer redis = RedisServer.start(null)) {
      SharedCrawls.startOrJoin(redis.uri(), "sized", CrawlSettings.defaults(), 4, Clock.systemUTC(), Ticker.SYSTEM)
          .close();
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:9/\n");
      String log = dir.resolve("agent.log").toString();
      Cmd started = Cmd.run("crawl", seeds.toString(), "--redis", redis.uri(), "--crawl-name", "sized", "-o",
          dir.resolve("a.jsonl").toString(), "--log-file", log, "--set", "filter.p=0.01");
      assertEquals(ExitCodes.CONFIG, started.exitCode(), started.toString());
      assertTrue(started.err().startsWith("sievecrawl: filter.p cannot change when an agent joins: the shared crawl"
          + " 'sized' in " + redis.uri() + " was sized for p = 0.001 (given ") && started.err().contains(": 0.01);"
          + " join it with the same n and p"), started.err());
      Cmd joined = Cmd.run("join", "--redis", redis.uri(), "--crawl-name", "sized", "-o",
          dir.resolve("b.jsonl").toString(), "--log-file", log, "--set", "filter.n=5000");
      assertEquals(ExitCodes.CONFIG, joined.exitCode(), joined.toString());
      assertTrue(joined.err().startsWith("sievecrawl: filter.n cannot change when an agent joins: the shared crawl"
          + " 'sized' in " + redis.uri() + " was sized for n = "), joined.err());
      assertFalse(Files.exists(dir.resolve("a.jsonl")) && Files.size(dir.resolve("a.jsonl")) > 0, "nothing fetched");
    }
  }

  /**
   * A finished shared crawl's name is taken until 'remove' deletes its keys; a restarted agent adds to its own
   * results file with --append.
   */
  @Test
  void aFinishedSharedCrawlIsSaidToBeSoAndRemoveFreesItsName() throws Exception {
    try (RedisServer redis = RedisServer.start(null); SyntheticSite site = SyntheticSite.start(20, 3)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Path out = dir.resolve("out.jsonl");
      String log = dir.resolve("agent.log").toString();
      Cmd first = Cmd.run("crawl", seeds.toString(), "--redis", redis.uri(), "--crawl-name", "docs", "-o",
          out.toString(), "--log-file", log, "--delay", "0ms");
      assertEquals(ExitCodes.OK, first.exitCode(), first.toString());
      String removeCommand = "sievecrawl remove --redis " + redis.uri() + " --crawl-name docs";
      assertTrue(first.err().contains("the shared crawl stays in Redis until removed with '" + removeCommand + "'"),
          first.err());

      Cmd again = Cmd.run("crawl", seeds.toString(), "--redis", redis.uri(), "--crawl-name", "docs", "-o",
          dir.resolve("again.jsonl").toString(), "--log-file", log);
      assertEquals(ExitCodes.SHARED, again.exitCode(), again.toString());
      assertEquals("sievecrawl: the shared crawl 'docs' in " + redis.uri() + " is finished already: choose another"
          + " --crawl-name, or remove it first with '" + removeCommand + "'\n", again.err());

      Cmd remove = Cmd.run("remove", "--redis", redis.uri(), "--crawl-name", "docs");
      assertEquals(ExitCodes.OK, remove.exitCode(), remove.toString());
      assertTrue(remove.out().matches("removed the shared crawl 'docs' from " + java.util.regex.Pattern.quote(
          redis.uri()) + ": [1-9][0-9,]* keys\n"), remove.out());
      Cmd gone = Cmd.run("remove", "--redis", redis.uri(), "--crawl-name", "docs");
      assertEquals(ExitCodes.SHARED, gone.exitCode(), gone.toString());
      assertTrue(gone.err().contains("no shared crawl named 'docs'"), gone.err());

      Files.writeString(out, "{\"url\":\"torn", java.nio.file.StandardOpenOption.APPEND);
      Cmd refused = Cmd.run("crawl", seeds.toString(), "--redis", redis.uri(), "--crawl-name", "docs", "-o",
          out.toString(), "--log-file", log, "--delay", "0ms");
      assertEquals(ExitCodes.OUTPUT, refused.exitCode(), refused.toString());
      assertTrue(refused.err().contains("adds to its own with --append"), refused.err());
      Cmd appended = Cmd.run("crawl", seeds.toString(), "--redis", redis.uri(), "--crawl-name", "docs", "-o",
          out.toString(), "--log-file", log, "--delay", "0ms", "--append");
      assertEquals(ExitCodes.OK, appended.exitCode(), appended.toString());
      List<String> lines = Files.readAllLines(out);
      assertEquals(40, lines.size(), "both runs' pages, the torn line cut off");
      for (String line : lines) {
        new ObjectMapper().readTree(line);
      }
    }
  }

  @Test
  void aRedisOutOfMemoryEndsTheAgentWithTheSharedCrawlsCodeAndSaysWhy() throws Exception {
    try (RedisServer redis = RedisServer.start(null, List.of("--maxmemory", "3mb"));
        SyntheticSite site = SyntheticSite.start(50_000, 40)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Path stderr = dir.resolve("stderr.txt");
      Process agent = ChildProcess.start(Main.class, List.of(), Map.of(), stderr, "crawl", seeds.toString(),
          "--redis", redis.uri(), "--crawl-name", "full", "-n", "100k", "-o", dir.resolve("out.jsonl").toString(),
          "--log-file", dir.resolve("agent.log").toString(), "--delay", "0ms", "--host-concurrency", "4");
      assertTrue(agent.waitFor(3, TimeUnit.MINUTES), "the agent ends");
      String said = Files.readString(stderr);
      assertEquals(ExitCodes.SHARED, agent.exitValue(), said);
      assertTrue(said.contains("is out of memory") && said.contains("maxmemory"), said);
      assertFalse(said.contains("internal error") || said.contains("\tat "), said);
    }
  }

  @Test
  void threeAgentsShareACrawlAndSurviveTheDeathOfOne() throws Exception {
    try (RedisServer redis = RedisServer.start(null)) {
      List<SyntheticSite> sites = new ArrayList<>();
      try {
        StringBuilder seeds = new StringBuilder();
        for (int i = 0; i < SITES; i++) {
          SyntheticSite site = SyntheticSite.start(PAGES_PER_SITE, 5, 200); // slow until every agent has work
          sites.add(site);
          seeds.append(site.rootUrl()).append('\n');
        }
        Path seedFile = Files.writeString(dir.resolve("seeds.txt"), seeds);
        List<String> tuning = List.of("--concurrency", "" + CONCURRENCY, "--delay", "0ms", "--host-concurrency", "1",
            "--set", "frontier.lease-ttl=2s");
        Path[] results = {dir.resolve("a1.jsonl"), dir.resolve("a2.jsonl"), dir.resolve("a3.jsonl")};
        Process first = agent(0, results[0], concat(List.of("crawl", seedFile.toString(), "--redis", redis.uri(),
            "--crawl-name", "shared"), tuning));
        waitForLines(first, results, 50);
        Process second = agent(1, results[1], concat(List.of("join", "--redis", redis.uri(), "--crawl-name",
            "shared"), tuning));
        Process third = agent(2, results[2], concat(List.of("join", "--redis", redis.uri(), "--crawl-name",
            "shared"), tuning));
        waitForLines(second, new Path[] {results[1]}, 5); // it got a share of the busy origins and works them
        waitForLines(third, new Path[] {results[2]}, 5);
        sites.forEach(site -> site.setResponseDelay(5));
        long secondsLines = lines(results[1]);
        second.toHandle().destroyForcibly(); // SIGKILL: its shards' leases expire, the others take its work
        assertTrue(second.waitFor(1, TimeUnit.MINUTES));

        assertTrue(first.waitFor(3, TimeUnit.MINUTES), "the first agent ends");
        assertTrue(third.waitFor(3, TimeUnit.MINUTES), "the third agent ends");
        assertEquals(0, first.exitValue(), Files.readString(dir.resolve("stderr-0.txt")));
        assertEquals(0, third.exitValue(), Files.readString(dir.resolve("stderr-2.txt")));
        assertTrue(secondsLines > 0, "the killed agent had done some of the work");

        Map<String, Integer> records = new HashMap<>();
        ObjectMapper json = new ObjectMapper();
        for (Path file : results) {
          for (String line : Files.readAllLines(file)) {
            JsonNode record = json.readTree(line);
            if (!record.get("requisite").asBoolean()) { // with --warc, the pages' images and style sheets too
              records.merge(record.get("url").asText(), 1, Integer::sum);
            }
          }
        }
        int repeatedFetches = 0;
        for (SyntheticSite site : sites) {
          assertEquals(0, site.pagesNeverServed(), "every page of " + site.rootUrl() + " fetched");
          assertEquals(1, site.maxConcurrentRequests(), site.rootUrl() + " saw two agents at once");
          repeatedFetches += site.repeatedRequests();
        }
        System.out.printf("shared crawl: 3 agents, one killed; %d pages fetched twice (bound %d)%n", repeatedFetches,
            CONCURRENCY);
        assertEquals(SITES * PAGES_PER_SITE, records.size(), "every page has a record in one of the files");
        // A survivor starved past its lease (a loaded machine) loses its shards as the killed agent did: what it had
        // in flight may be fetched again by the agent that takes them, at most its CONCURRENCY each time
        long survivorLosses = leaseLosses(0) + leaseLosses(2);
        long bound = CONCURRENCY * (1 + survivorLosses);
        assertTrue(repeatedFetches <= bound, repeatedFetches + " pages fetched twice: more than the killed agent's "
            + CONCURRENCY + " in flight and " + CONCURRENCY + " for each of the " + survivorLosses + " times a"
            + " survivor lost leases");
        checkWarc(0, results[0]);
        checkWarc(2, results[2]);
      } finally {
        sites.forEach(SyntheticSite::close);
      }
    }
  }

  /** The heartbeats in which agent {@code index} found leases of its own lost (its log's lines, by the second). */
  private long leaseLosses(int index) throws IOException {
    return Files.readAllLines(dir.resolve("agent-" + index + ".log")).stream()
        .filter(line -> line.contains("lost the lease of shard") && line.length() >= 19)
        .map(line -> line.substring(0, 19)).distinct().count();
  }

  private Process agent(int index, Path results, String... args) throws IOException {
    String[] all = concat(List.of(args), List.of("-o", results.toString(), "--log-file",
        dir.resolve("agent-" + index + ".log").toString(), "--warc", warcDir(index).toString()));
    return ChildProcess.start(List.of(), dir.resolve("stderr-" + index + ".txt"), all);
  }

  /** Each agent's own WARC directory. */
  private Path warcDir(int agent) {
    return dir.resolve("warc-" + agent);
  }

  /** Every page in the results of a live agent has its response record in that agent's own WARC files. */
  private void checkWarc(int agent, Path results) throws IOException {
    java.util.Set<String> archived = new java.util.HashSet<>();
    try (var files = Files.list(warcDir(agent))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".warc.gz")).toList()) {
        try (org.netpreserve.jwarc.WarcReader reader = new org.netpreserve.jwarc.WarcReader(file)) {
          for (org.netpreserve.jwarc.WarcRecord record : reader) {
            if (record instanceof org.netpreserve.jwarc.WarcCaptureRecord capture // a revisit of a payload kept
                && (record instanceof org.netpreserve.jwarc.WarcResponse
                    || record instanceof org.netpreserve.jwarc.WarcRevisit)) {
              archived.add(capture.target());
            }
          }
        }
      }
    }
    ObjectMapper json = new ObjectMapper();
    for (String line : Files.readAllLines(results)) {
      String url = json.readTree(line).get("url").asText();
      assertTrue(archived.contains(url), "agent " + agent + " archived no response or revisit for " + url);
    }
  }

  private void waitForLines(Process child, Path[] files, long target) throws Exception {
    while (lines(files) < target) {
      if (child.waitFor(20, TimeUnit.MILLISECONDS)) {
        StringBuilder logs = new StringBuilder();
        for (int i = 0; i < 3; i++) {
          Path log = dir.resolve("agent-" + i + ".log");
          logs.append("--- agent ").append(i).append('\n').append(Files.exists(log) ? Files.readString(log) : "");
        }
        throw new AssertionError("the agent ended early, exit " + child.exitValue() + "\n" + logs);
      }
    }
  }

  private static long lines(Path... files) throws IOException {
    long n = 0;
    for (Path f : files) {
      if (Files.exists(f)) {
        for (byte b : Files.readAllBytes(f)) {
          n += b == '\n' ? 1 : 0;
        }
      }
    }
    return n;
  }

  private static String[] concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
  }
}

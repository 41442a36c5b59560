package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sievecrawl.crawler.bench.SyntheticSite;
import io.sievecrawl.sieve.redis.RedisCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two agents in child JVMs start one crawl at once through a real Redis Cluster of three masters, each pointed at a node that
 * does not serve the crawl's keys: every page is fetched once, and 'remove' through the third node deletes every key of the crawl.
 */
class SharedCrawlClusterIT {
  private static final int PAGES_PER_SITE = 80;

  @TempDir
  Path dir;

  @Test
  void agentsPointedAtNodesThatDoNotServeTheCrawlFetchEveryPageOnce() throws Exception {
    try (RedisCluster cluster = RedisCluster.start();
        SyntheticSite one = SyntheticSite.start(PAGES_PER_SITE, 4, 10);
        SyntheticSite two = SyntheticSite.start(PAGES_PER_SITE, 4, 10)) {
      RedisCluster.Node owner = cluster.ownerOf("sievecrawl:{docs}:meta");
      List<RedisCluster.Node> others = cluster.masters().stream().filter(node -> node != owner).toList();
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), one.rootUrl() + "\n" + two.rootUrl() + "\n");
      List<String> tuning = List.of("--delay", "0ms", "--concurrency", "4", "--host-concurrency", "1");
      Path[] results = {dir.resolve("a.jsonl"), dir.resolve("b.jsonl")};
      // both start it: the one whose script runs first creates it, the other joins it and offers the seeds again
      Process first = agent(0, results[0], List.of("crawl", seeds.toString(), "--redis", others.get(0).uri(),
          "--crawl-name", "docs"), tuning);
      Process second = agent(1, results[1], List.of("crawl", seeds.toString(), "--redis", others.get(1).uri(),
          "--crawl-name", "docs"), tuning);
      assertTrue(first.waitFor(3, TimeUnit.MINUTES) && second.waitFor(3, TimeUnit.MINUTES), "both agents end");
      assertEquals(0, first.exitValue(), stderr(0));
      assertEquals(0, second.exitValue(), stderr(1));
      for (int agent = 0; agent < 2; agent++) { // nothing went wrong, so no warning
        assertEquals(List.of(), stderr(agent).lines().filter(line -> line.startsWith("WARN:")
            || line.startsWith("ERROR:")).toList(), "agent " + agent + "'s console");
      }

      Map<String, Integer> records = new HashMap<>();
      ObjectMapper json = new ObjectMapper();
      for (Path file : results) {
        for (String line : Files.readAllLines(file)) {
          records.merge(json.readTree(line).get("url").asText(), 1, Integer::sum);
        }
      }
      assertEquals(2 * PAGES_PER_SITE, records.size(), "every page has a record");
      System.out.printf("cluster crawl: %d and %d pages by the two agents%n", Files.readAllLines(results[0]).size(),
          Files.readAllLines(results[1]).size());
      for (SyntheticSite site : List.of(one, two)) {
        assertEquals(0, site.pagesNeverServed(), "every page of " + site.rootUrl() + " fetched");
        assertEquals(0, site.repeatedRequests(), "no page of " + site.rootUrl() + " fetched twice");
      }

      Cmd remove = Cmd.run("remove", "--redis", owner.uri(), "--crawl-name", "docs");
      assertEquals(ExitCodes.OK, remove.exitCode(), remove.toString());
      assertEquals(0, cluster.keysPerMaster().values().stream().mapToLong(Long::longValue).sum(),
          "no key of the crawl left on any master: " + cluster.keysPerMaster());
    }
  }

  private Process agent(int index, Path results, List<String> command, List<String> tuning) throws IOException {
    List<String> all = new java.util.ArrayList<>(command);
    all.addAll(tuning);
    all.addAll(List.of("-o", results.toString(), "--log-file", dir.resolve("agent-" + index + ".log").toString()));
    return ChildProcess.start(List.of(), dir.resolve("stderr-" + index + ".txt"), all.toArray(String[]::new));
  }

  private String stderr(int index) throws IOException {
    Path file = dir.resolve("stderr-" + index + ".txt");
    return Files.exists(file) ? Files.readString(file) : "";
  }
}

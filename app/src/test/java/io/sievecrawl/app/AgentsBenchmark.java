package io.sievecrawl.app;

import io.sievecrawl.crawler.bench.SyntheticSite;
import io.sievecrawl.sieve.redis.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pages/s of 1, 2 and 3 agents (child JVMs) sharing a crawl of the bench's synthetic site, spread over 16 loopback
 * origins, through a redis-server on loopback. Not a test and not in CI (its name does not end in Test); run it
 * with {@code mvn -B -pl app -am test -Dtest=AgentsBenchmark -Dsurefire.failIfNoSpecifiedTests=false}. Agents,
 * sites and Redis share this machine's 2 cores, so more agents compete for the same CPU.
 */
class AgentsBenchmark {
  private static final int ORIGINS = 16;
  private static final int PAGES_PER_ORIGIN = 1_000;

  @TempDir
  Path dir;

  @Test
  void pagesPerSecondWithOneTwoAndThreeAgents() throws Exception {
    try (RedisServer redis = RedisServer.start(null)) {
      List<String> rows = new ArrayList<>();
      for (int agents = 1; agents <= 3; agents++) {
        rows.add(run(redis, agents));
      }
      System.out.println("agents  pages   seconds  pages/s   (16 origins, 20 links a page, concurrency 16 each)");
      rows.forEach(System.out::println);
    }
  }

  private String run(RedisServer redis, int agents) throws Exception {
    List<SyntheticSite> sites = new ArrayList<>();
    StringBuilder seeds = new StringBuilder();
    for (int i = 0; i < ORIGINS; i++) {
      SyntheticSite site = SyntheticSite.start(PAGES_PER_ORIGIN, 20);
      sites.add(site);
      seeds.append(site.rootUrl()).append('\n');
    }
    try {
      Path seedFile = Files.writeString(dir.resolve("seeds-" + agents + ".txt"), seeds);
      List<String> tuning = List.of("--concurrency", "16", "--delay", "0ms", "--host-concurrency", "4", "-q",
          "--set", "crawl.max-pages-per-host=0");
      String name = "bench-" + agents;
      long start = System.nanoTime();
      List<Process> processes = new ArrayList<>();
      processes.add(agent(agents, 0, concat(List.of("crawl", seedFile.toString(), "--redis", redis.uri(),
          "--crawl-name", name), tuning)));
      for (int i = 1; i < agents; i++) {
        processes.add(agent(agents, i, concat(List.of("join", "--redis", redis.uri(), "--crawl-name", name),
            tuning)));
      }
      for (Process p : processes) {
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
          throw new AssertionError("an agent failed: " + Files.readString(dir.resolve("err-" + agents + "-0.txt")));
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      int pages = ORIGINS * PAGES_PER_ORIGIN;
      for (SyntheticSite site : sites) {
        if (site.pagesNeverServed() != 0) {
          throw new AssertionError(site.rootUrl() + " was not crawled whole");
        }
      }
      return String.format(Locale.ROOT, "%-7d %-7d %-8.1f %-8.0f", agents, pages, seconds, pages / seconds);
    } finally {
      sites.forEach(SyntheticSite::close);
    }
  }

  private Process agent(int agents, int index, String... args) throws Exception {
    String[] all = concat(List.of(args), List.of("-o", dir.resolve("out-" + agents + "-" + index + ".jsonl").toString(),
        "--log-file", dir.resolve("log-" + agents + "-" + index + ".txt").toString()));
    return ChildProcess.start(List.of(), dir.resolve("err-" + agents + "-" + index + ".txt"), all);
  }

  private static String[] concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
  }
}

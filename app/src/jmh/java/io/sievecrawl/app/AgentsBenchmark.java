package io.sievecrawl.app;

import io.sievecrawl.crawler.bench.SyntheticSite;
import io.sievecrawl.sieve.redis.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Pages/s of 1, 2 and 3 agents (child JVMs) sharing a crawl of the bench's synthetic site, spread over 16 loopback
 * origins, through a redis-server on loopback. Agents, sites and Redis share this machine's 2 cores, so more agents
 * compete for the same CPU.
 *
 * <p>Run: {@code mvn -q -B -pl app -am -Pjmh-app process-test-classes} (for a shorter run,
 * {@code -Djmh.args="AGENTS PAGES_PER_ORIGIN"}: up to 3 agents, 1,000 pages an origin by default). The agents run on
 * the module's test class path, as the tests' child processes do, against a redis-server started as the tests start
 * theirs (Debian's package).
 */
public final class AgentsBenchmark {
  private static final int ORIGINS = 16;

  private final Path dir;
  private final int pagesPerOrigin;

  private AgentsBenchmark(Path dir, int pagesPerOrigin) {
    this.dir = dir;
    this.pagesPerOrigin = pagesPerOrigin;
  }

  public static void main(String[] args) throws Exception {
    int maxAgents = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int pagesPerOrigin = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
    Path dir = Files.createTempDirectory("agents-benchmark");
    try (RedisServer redis = RedisServer.start(null)) {
      AgentsBenchmark bench = new AgentsBenchmark(dir, pagesPerOrigin);
      List<String> rows = new ArrayList<>();
      for (int agents = 1; agents <= maxAgents; agents++) {
        rows.add(bench.run(redis, agents));
      }
      System.out.println("agents  pages   seconds  pages/s   (16 origins, 20 links a page, concurrency 16 each)");
      rows.forEach(System.out::println);
    } catch (Exception | Error e) {
      System.err.println("the agents' results, logs and standard error are kept in " + dir);
      throw e;
    }
    delete(dir);
  }

  private String run(RedisServer redis, int agents) throws Exception {
    List<SyntheticSite> sites = new ArrayList<>();
    StringBuilder seeds = new StringBuilder();
    for (int i = 0; i < ORIGINS; i++) {
      SyntheticSite site = SyntheticSite.start(pagesPerOrigin, 20);
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
      for (int i = 0; i < processes.size(); i++) {
        Process p = processes.get(i);
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
          processes.forEach(Process::destroyForcibly);
          throw new IllegalStateException("agent " + i + " of " + agents + " failed: "
              + Files.readString(dir.resolve("err-" + agents + "-" + i + ".txt")));
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      int pages = ORIGINS * pagesPerOrigin;
      for (SyntheticSite site : sites) {
        if (site.pagesNeverServed() != 0) {
          throw new IllegalStateException(site.rootUrl() + " was not crawled whole by " + agents + " agent(s): "
              + site.pagesNeverServed() + " of its " + site.pages() + " pages never fetched");
        }
      }
      return String.format(Locale.ROOT, "%-7d %-7d %-8.1f %-8.0f", agents, pages, seconds, pages / seconds);
    } finally {
      sites.forEach(SyntheticSite::close);
    }
  }

  private Process agent(int agents, int index, String... args) throws IOException {
    String[] all = concat(List.of(args), List.of("-o", dir.resolve("out-" + agents + "-" + index + ".jsonl").toString(),
        "--log-file", dir.resolve("log-" + agents + "-" + index + ".txt").toString()));
    return ChildProcess.start(List.of(), dir.resolve("err-" + agents + "-" + index + ".txt"), all);
  }

  private static String[] concat(List<String> a, List<String> b) {
    return Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}

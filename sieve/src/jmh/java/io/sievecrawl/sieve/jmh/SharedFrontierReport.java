package io.sievecrawl.sieve.jmh;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.redis.RedisCrawl;
import io.sievecrawl.sieve.redis.RedisFrontier;
import io.sievecrawl.sieve.redis.RedisCluster;
import io.sievecrawl.sieve.redis.RedisServer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How fast can agents admit URLs through a shared Redis frontier when fetching costs nothing: 1, 2 and 3 agents, each a
 * connection and a worker loop that works as a crawler's scheduler does with its set of origins full: it checks an
 * origin out, takes up to {@value #TURN_PAGES} of its pages (its turn), and for each offers its 20 links in one batch
 * (new URLs) and acknowledges it, then gives the origin back. Every task it claims it fetches, so what the rows measure
 * is the admission and a page's round trips, not tasks claimed and put back. Prints admitted URLs/s per agent and in
 * all, pages/s, Redis round trips per page and per admitted URL (the calls of the work loop: scripts, stream reads and
 * claims, read from INFO commandstats; the heartbeat's few calls per lease period are not counted), and the CPU per
 * admitted URL of Redis and of the agents (this process). Against a redis-server started on loopback, or with
 * {@code cluster} a Redis Cluster of three masters (the crawl spread over them), where it also prints each master's share of
 * the commands beside its share of the crawl's shards. With {@code commands} it also prints each Redis command's calls
 * and microseconds per page (INFO commandstats, every command).
 *
 * <p>Run: {@code mvn -q -B -pl sieve -Pjmh test-compile exec:exec
 * -Djmh.main=io.sievecrawl.sieve.jmh.SharedFrontierReport -Djmh.args="10"} (seconds per run; {@code "10 cluster"}
 * for the cluster, {@code "10 commands"} for the commands). All agents share this machine's 2 cores with Redis, so
 * the figures measure the agents' CPU as much as Redis.
 */
public final class SharedFrontierReport {
  private static final int LINKS_PER_PAGE = 20;
  private static final int TURN_PAGES = 16; // a turn of an origin, as the crawler's scheduler gives one (TURN_LEASES)

  private SharedFrontierReport() {}

  /** Where the crawl is, and the nodes whose commands and CPU count. */
  private record Target(String uri, List<String> nodes, RedisCluster cluster) {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    List<String> flags = List.of(args).subList(Math.min(1, args.length), args.length);
    boolean onCluster = flags.contains("cluster");
    boolean byCommand = flags.contains("commands");
    try (RedisServer redis = onCluster ? null : RedisServer.start(null);
        RedisCluster cluster = onCluster ? RedisCluster.start() : null) {
      Target target = onCluster
          ? new Target(cluster.seeds(), cluster.masters().stream().map(RedisCluster.Node::uri).toList(), cluster)
          : new Target(redis.uri(), List.of(redis.uri()), null);
      System.out.printf(Locale.ROOT, "%-7s %11s %10s %8s %15s %14s %13s %14s%n", "agents", "admitted/s",
          "per agent", "pages/s", "round trips per", "round trips per", "Redis CPU us", "agents' CPU us");
      System.out.printf(Locale.ROOT, "%-7s %11s %10s %8s %15s %14s %13s %14s%n", "", "", "", "", "page", "URL",
          "per URL", "per URL");
      for (int agents = 1; agents <= 3; agents++) {
        run(target, agents, seconds, byCommand);
      }
    }
  }

  private static void run(Target redis, int agents, int seconds, boolean byCommand) throws Exception {
    String name = "bench-" + agents;
    List<RedisFrontier<String>> frontiers = new ArrayList<>();
    List<RedisCrawl> crawls = new ArrayList<>();
    for (int i = 0; i < agents; i++) {
      RedisCrawl crawl = RedisCrawl.startOrJoin(redis.uri(), name, 100_000_000, 0.01, 64, "", Clock.systemUTC(),
          Ticker.SYSTEM);
      crawls.add(crawl);
      frontiers.add(RedisFrontier.open(crawl, new Utf8Codec(), url -> url,
          url -> url.substring(0, url.indexOf('/', 8)), Duration.ofSeconds(10), "n"));
    }
    AtomicLong next = new AtomicLong();
    List<String> seeds = new ArrayList<>();
    for (int h = 0; h < 256; h++) {
      seeds.add("https://host" + h + ".example/");
    }
    frontiers.get(0).offerAll(seeds);
    long[] commandsBefore = redis.nodes().stream().mapToLong(SharedFrontierReport::commands).toArray();
    double cpuBefore = redis.nodes().stream().mapToDouble(RedisInfo::cpuSeconds).sum();
    Map<String, long[]> statsBefore = byCommand ? RedisInfo.commandStats(redis.nodes()) : Map.of();
    AtomicLong admitted = new AtomicLong();
    AtomicLong pages = new AtomicLong();
    long agentsCpuBefore = agentsCpuNanos(); // after the reads of INFO, whose clients cost CPU too
    long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    List<Thread> workers = new ArrayList<>();
    for (RedisFrontier<String> frontier : frontiers) {
      workers.add(Thread.ofPlatform().start(() -> {
        while (System.nanoTime() < end) {
          String origin = frontier.nextQueue();
          if (origin == null) {
            Thread.onSpinWait();
            continue;
          }
          for (int turn = 0; turn < TURN_PAGES && System.nanoTime() < end; turn++) {
            Claim<String> claim = frontier.poll(origin);
            if (claim == null) {
              break;
            }
            List<String> links = new ArrayList<>(LINKS_PER_PAGE); // the page, fetched at no cost
            for (int i = 0; i < LINKS_PER_PAGE; i++) {
              long n = next.getAndIncrement();
              links.add("https://host" + (n % 256) + ".example/section/" + (n % 97) + "/page-" + n + ".html");
            }
            admitted.addAndGet(frontier.offerAll(links).cardinality());
            frontier.complete(claim);
            pages.incrementAndGet();
          }
          frontier.releaseQueue(origin);
        }
      }));
    }
    for (Thread w : workers) {
      w.join();
    }
    long agentsCpu = agentsCpuNanos() - agentsCpuBefore;
    long[] perNode = new long[commandsBefore.length];
    for (int i = 0; i < perNode.length; i++) {
      perNode[i] = commands(redis.nodes().get(i)) - commandsBefore[i];
    }
    long commands = java.util.Arrays.stream(perNode).sum();
    double cpu = redis.nodes().stream().mapToDouble(RedisInfo::cpuSeconds).sum() - cpuBefore;
    double perSecond = admitted.get() / (double) seconds;
    System.out.printf(Locale.ROOT, "%-7d %11.0f %10.0f %8.0f %15.3f %14.3f %13.2f %14.2f%n", agents, perSecond,
        perSecond / agents, pages.get() / (double) seconds, (double) commands / pages.get(),
        (double) commands / admitted.get(), cpu * 1e6 / admitted.get(), agentsCpu / 1e3 / admitted.get());
    if (byCommand) {
      RedisInfo.printPerPage(statsBefore, RedisInfo.commandStats(redis.nodes()), pages.get());
    }
    if (redis.cluster() != null) {
      for (int i = 0; i < perNode.length; i++) {
        String node = redis.nodes().get(i);
        long shards = java.util.stream.IntStream.range(0, 64).filter(s -> redis.cluster().ownerOf(
            "sievecrawl:{" + name + ":" + s + "}:shard:" + s).uri().equals(node)).count();
        System.out.printf(Locale.ROOT, "        master %s: %5.1f%% of the commands, %5.1f%% of the shards%n", node,
            100.0 * perNode[i] / commands, 100.0 * shards / 64);
      }
    }
    for (RedisFrontier<String> f : frontiers) {
      f.close();
    }
    crawls.forEach(RedisCrawl::close);
  }

  /** The CPU time of this process so far (the agents, with their JIT and GC): what the admissions cost them. */
  private static long agentsCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** Client calls of the work loop so far: scripts (offers, acknowledgements), stream reads and claims. */
  private static long commands(String uri) {
    try (var client = io.lettuce.core.RedisClient.create(uri); var connection = client.connect()) {
      long calls = 0;
      for (String line : connection.sync().info("commandstats").split("\r?\n")) {
        for (String command : List.of("cmdstat_evalsha:", "cmdstat_xreadgroup:", "cmdstat_xautoclaim:")) {
          if (line.startsWith(command)) {
            String field = line.substring(line.indexOf("calls=") + 6);
            calls += Long.parseLong(field.substring(0, field.indexOf(',')));
          }
        }
      }
      return calls;
    }
  }
}

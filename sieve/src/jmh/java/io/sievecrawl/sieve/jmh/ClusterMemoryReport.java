package io.sievecrawl.sieve.jmh;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.redis.RedisCluster;
import io.sievecrawl.sieve.redis.RedisCrawl;
import io.sievecrawl.sieve.redis.RedisFrontier;
import io.sievecrawl.sieve.redis.RedisServer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a URL costs in Redis memory when a crawl is spread over a Redis Cluster of three masters (a part of the filter
 * and of the exact store per shard, each sized for n/64) against one Redis (one filter and one store for n): URLS
 * distinct URLs of the form {@link SharedFrontierReport} offers (256 hosts, 64 shards), admitted into a crawl of
 * n = URLS, p = 0.001 with the exact store (the command line's defaults for a crawl sized for its URLs).
 *
 * <p>Fetching is stubbed further than in {@code SharedFrontierReport}: nothing is taken or acknowledged, the URLs are
 * offered straight through the frontier's API, 1,000 a call (an admission's most), by THREADS threads on one
 * connection each, so 10M URLs take minutes, not hours. Every admitted URL stays queued: the figures are the filter,
 * the exact store and the queues, which both layouts hold the same way, and what the layout adds.
 *
 * <p>Prints, per layout: admitted URLs, the wall time and rate of the admission and Redis's CPU per URL; the growth of {@code used_memory}
 * (INFO memory, summed over the masters) from the nodes' empty baseline, per URL; the sum of {@code MEMORY USAGE key
 * SAMPLES 0} (every element counted) over every key of the crawl, per URL and by kind of key (filter chunks, exact
 * store buckets, origins' queues, the rest); and on the cluster each master's keys and bytes. The cluster's excess
 * over one Redis closes the report.
 *
 * <p>Run: {@code mvn -q -B -pl sieve -Pjmh test-compile exec:exec
 * -Djmh.main=io.sievecrawl.sieve.jmh.ClusterMemoryReport -Djmh.args="10000000 2"} (URLs, threads; a third argument
 * {@code one} or {@code cluster} runs one layout alone).
 */
public final class ClusterMemoryReport {
  private static final int HOSTS = 256;
  private static final int BATCH = 1_000;
  private static final double P = 0.001;

  private ClusterMemoryReport() {}

  /** What one layout took: the rise of used_memory and MEMORY USAGE by kind of key, over the URLs admitted. */
  private record Result(long admitted, long usedMemory, Map<String, Long> byKind) {
    long keyBytes() {
      return byKind.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  public static void main(String[] args) throws Exception {
    long urls = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    String only = args.length > 2 ? args[2] : "both";
    System.out.printf(Locale.ROOT, "%,d URLs over %d hosts, n = %,d, p = %s, exact store on, 64 shards, %d threads%n",
        urls, HOSTS, urls, P, threads);
    Result one = null;
    Result spread = null;
    if (!only.equals("cluster")) {
      try (RedisServer redis = RedisServer.start(null)) {
        one = run("one Redis", redis.uri(), List.of(redis.uri()), urls, threads);
      }
    }
    if (!only.equals("one")) {
      try (RedisCluster cluster = RedisCluster.start()) {
        spread = run("cluster of 3 masters", cluster.seeds(),
            cluster.masters().stream().map(RedisCluster.Node::uri).toList(), urls, threads);
      }
    }
    if (one != null && spread != null) {
      System.out.printf(Locale.ROOT, "cluster against one Redis: used_memory %+.1f%%, MEMORY USAGE of the keys %+.1f%%%n",
          100.0 * (perUrl(spread.usedMemory(), spread) / perUrl(one.usedMemory(), one) - 1),
          100.0 * (perUrl(spread.keyBytes(), spread) / perUrl(one.keyBytes(), one) - 1));
    }
  }

  private static double perUrl(long bytes, Result result) {
    return bytes / (double) result.admitted();
  }

  private static Result run(String where, String uri, List<String> masters, long urls, int threads) throws Exception {
    long baseline = masters.stream().mapToLong(ClusterMemoryReport::usedMemory).sum();
    double cpuBefore = masters.stream().mapToDouble(RedisInfo::cpuSeconds).sum();
    String name = "memory";
    List<RedisCrawl> crawls = new ArrayList<>();
    List<RedisFrontier<String>> frontiers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      RedisCrawl crawl = RedisCrawl.startOrJoin(uri, name, urls, P, true, 64, "", Clock.systemUTC(), Ticker.SYSTEM);
      crawls.add(crawl);
      frontiers.add(RedisFrontier.open(crawl, new Utf8Codec(), url -> url,
          url -> url.substring(0, url.indexOf('/', 8)), Duration.ofMinutes(10), "filter.n"));
    }
    AtomicLong next = new AtomicLong();
    AtomicLong admitted = new AtomicLong();
    long start = System.nanoTime();
    List<Thread> workers = new ArrayList<>();
    for (RedisFrontier<String> frontier : frontiers) {
      workers.add(Thread.ofPlatform().start(() -> {
        List<String> batch = new ArrayList<>(BATCH);
        for (long from = next.getAndAdd(BATCH); from < urls; from = next.getAndAdd(BATCH)) {
          batch.clear();
          for (long n = from; n < Math.min(urls, from + BATCH); n++) {
            batch.add("https://host" + (n % HOSTS) + ".example/section/" + (n % 97) + "/page-" + n + ".html");
          }
          long total = admitted.addAndGet(frontier.offerAll(batch).cardinality());
          if (total / 1_000_000 != (total - BATCH) / 1_000_000 && total >= 1_000_000) {
            System.out.printf(Locale.ROOT, "  %,d admitted after %.0f s%n", total / 1_000_000 * 1_000_000,
                (System.nanoTime() - start) / 1e9);
          }
        }
      }));
    }
    for (Thread worker : workers) {
      worker.join();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpu = masters.stream().mapToDouble(RedisInfo::cpuSeconds).sum() - cpuBefore;
    for (RedisFrontier<String> frontier : frontiers) {
      frontier.close();
    }
    crawls.forEach(RedisCrawl::close);
    long used = masters.stream().mapToLong(ClusterMemoryReport::usedMemory).sum() - baseline;
    Map<String, Long> byKind = new TreeMap<>();
    System.out.printf(Locale.ROOT, "%s: %,d of %,d URLs admitted in %.0f s (%,.0f/s), Redis CPU %.1f us per URL%n",
        where, admitted.get(), urls, seconds, admitted.get() / seconds, cpu * 1e6 / admitted.get());
    for (String master : masters) {
      Map<String, Long> kinds = keyBytesByKind(master);
      kinds.forEach((kind, bytes) -> byKind.merge(kind, bytes, Long::sum));
      if (masters.size() > 1) {
        System.out.printf(Locale.ROOT, "  master %s: %,d keys, %,d bytes%n", master, keyCount(master),
            kinds.values().stream().mapToLong(Long::longValue).sum());
      }
    }
    Result result = new Result(admitted.get(), used, byKind);
    System.out.printf(Locale.ROOT, "  used_memory above the empty nodes: %,d bytes, %.2f per URL%n", used,
        perUrl(used, result));
    System.out.printf(Locale.ROOT, "  MEMORY USAGE of the crawl's keys: %,d bytes, %.2f per URL%n",
        result.keyBytes(), perUrl(result.keyBytes(), result));
    byKind.forEach((kind, bytes) -> System.out.printf(Locale.ROOT, "    %-22s %,14d bytes %8.2f per URL%n", kind,
        bytes, perUrl(bytes, result)));
    return result;
  }

  /** The kind of a crawl's key, from its name after the hash tag. */
  private static String kind(String key) {
    String rest = key.substring(key.indexOf("}:") + 2);
    if (rest.startsWith("f:")) {
      return "filter chunks";
    } else if (rest.startsWith("x:")) {
      return "exact store buckets";
    } else if (rest.startsWith("o:")) {
      return "origins' queues";
    }
    return "the rest";
  }

  /** MEMORY USAGE SAMPLES 0 (every element) of each of the node's crawl keys, summed by kind. */
  private static Map<String, Long> keyBytesByKind(String uri) {
    Map<String, Long> byKind = new TreeMap<>();
    try (RedisClient client = RedisClient.create(uri);
        StatefulRedisConnection<String, String> connection = client.connect()) {
      io.lettuce.core.ScanArgs match = io.lettuce.core.ScanArgs.Builder.matches("sievecrawl:*").limit(1_000);
      for (io.lettuce.core.KeyScanCursor<String> cursor = connection.sync().scan(match); ;
          cursor = connection.sync().scan(cursor, match)) {
        for (String key : cursor.getKeys()) {
          Long bytes = connection.sync().dispatch(CommandType.MEMORY, new IntegerOutput<>(StringCodec.UTF8),
              new CommandArgs<>(StringCodec.UTF8).add("USAGE").addKey(key).add("SAMPLES").add(0));
          byKind.merge(kind(key), bytes == null ? 0 : bytes, Long::sum);
        }
        if (cursor.isFinished()) {
          return byKind;
        }
      }
    }
  }

  private static long keyCount(String uri) {
    try (RedisClient client = RedisClient.create(uri);
        StatefulRedisConnection<String, String> connection = client.connect()) {
      return connection.sync().dbsize();
    }
  }

  /** INFO memory's used_memory: what the node's allocator holds for data and its own structures. */
  private static long usedMemory(String uri) {
    try (RedisClient client = RedisClient.create(uri);
        StatefulRedisConnection<String, String> connection = client.connect()) {
      for (String line : connection.sync().info("memory").split("\r?\n")) {
        if (line.startsWith("used_memory:")) {
          return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
        }
      }
      throw new IllegalStateException("no used_memory in INFO memory of " + uri);
    }
  }
}

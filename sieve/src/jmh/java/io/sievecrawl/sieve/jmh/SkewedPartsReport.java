package io.sievecrawl.sieve.jmh;

import io.sievecrawl.sieve.SieveStats;
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

/**
 * What a crawl dominated by one origin costs when the filter is split into a part per shard: URLS distinct URLs of
 * one origin offered 20 at a time to a crawl of n = N, p = 0.001 (64 shards), on a Redis Cluster of three masters
 * (64 parts, each starting at n/64 and growing layers in its own slot when full: {@code PartLayers}) and on one
 * Redis (one filter for n), with the exact store confirming the filter and without. Prints URLs admitted, dropped as seen (wrongly: all are new), rescued by the store, and the bytes the
 * crawl takes in Redis (MEMORY USAGE of its keys) per URL.
 *
 * <p>Run: {@code mvn -q -B -pl sieve -Pjmh test-compile exec:exec -Djmh.main=io.sievecrawl.sieve.jmh.SkewedPartsReport
 * -Djmh.args="1000000 200000"}.
 */
public final class SkewedPartsReport {
  private SkewedPartsReport() {}

  public static void main(String[] args) throws Exception {
    long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
    int urls = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
    System.out.printf(Locale.ROOT, "n = %,d, p = 0.001, %,d URLs of one origin%n", n, urls);
    System.out.printf(Locale.ROOT, "%-14s %-9s %10s %10s %10s %12s%n", "redis", "store", "admitted", "dropped",
        "rescued", "bytes/URL");
    try (RedisCluster cluster = RedisCluster.start(); RedisServer plain = RedisServer.start(null)) {
      for (boolean confirm : List.of(true, false)) {
        run("cluster (64)", cluster.seeds(), n, urls, confirm, () -> cluster.footprintPerMaster(
            List.of("sievecrawl:*")).values().stream().mapToLong(RedisCluster.Footprint::bytes).sum());
        run("one Redis", plain.uri(), n, urls, confirm, () -> bytes(plain.uri()));
      }
    }
  }

  private static void run(String where, String uri, long n, int urls, boolean confirm,
      java.util.function.LongSupplier bytes) throws Exception {
    String name = "skew-" + confirm;
    try (RedisCrawl crawl = RedisCrawl.startOrJoin(uri, name, n, 0.001, confirm, 64, "", Clock.systemUTC(),
        Ticker.SYSTEM);
        RedisFrontier<String> frontier = RedisFrontier.open(crawl, new Utf8Codec(), url -> url,
            url -> url.substring(0, url.indexOf('/', 8)), Duration.ofSeconds(30), "filter.n")) {
      long before = bytes.getAsLong();
      List<String> page = new ArrayList<>(20);
      for (int i = 0; i < urls; i++) {
        page.add("https://big.example/docs/section-" + (i % 97) + "/page-" + i + ".html");
        if (page.size() == 20) {
          frontier.offerAll(page);
          page.clear();
        }
      }
      SieveStats stats = frontier.stats();
      System.out.printf(Locale.ROOT, "%-14s %-9s %,10d %,10d %,10d %12.1f%n", where, confirm ? "confirmed" : "none",
          stats.admitted(), stats.duplicatesDropped(), stats.rescued(),
          (bytes.getAsLong() - before) / (double) stats.admitted());
    }
  }

  private static long bytes(String uri) {
    try (var client = io.lettuce.core.RedisClient.create(uri); var connection = client.connect()) {
      long total = 0;
      for (String key : connection.sync().keys("sievecrawl:*")) {
        Long used = connection.sync().memoryUsage(key);
        total += used == null ? 0 : used;
      }
      return total;
    }
  }
}

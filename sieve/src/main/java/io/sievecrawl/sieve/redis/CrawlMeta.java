package io.sievecrawl.sieve.redis;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomSizing;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A shared crawl's meta hash: the format and its version, n and p with the filter's layout, the shards, whether an
 * exact store confirms the filter, and the settings the crawl was started with. Written once, when the crawl is
 * created; every agent reads it on joining.
 */
final class CrawlMeta {
  static final String FORMAT = "sievecrawl-shared";
  // 3: filter chunks of 1,023 blocks; 4: the sites in scope also as a log; 5: an exact store may confirm the filter
  // (an agent of version 4 would admit without adding fingerprints to it); 6: page requisites, tasks flagged as such
  // in lanes of their origin (an agent of version 5 cannot decode them); 7: a hash, counters and key tag per shard,
  // and on a Redis Cluster a filter part per shard (an agent of version 6 would look for one counters hash); 8: a
  // shard counts its tasks done, not open (an agent of version 7 would count open tasks that nothing decrements); 9:
  // a spread crawl's parts grow in layers, the first at p/2 (an agent of version 8 would fill the first layer on)
  static final int VERSION = 9;
  /** Fingerprints per bucket of the exact store at n: Redis keeps a SET of up to 512 integers as a compact intset. */
  static final long FINGERPRINTS_PER_BUCKET = 128;
  private static final int MAX_BUCKET_BITS = 20;

  private final Map<String, String> fields;
  private final BloomSizing sizing;
  private final PartLayers layers; // null unless spread

  private CrawlMeta(Map<String, String> fields) {
    this.fields = fields;
    this.layers = spread() ? new PartLayers(partN(), p()) : null;
    this.sizing = layers != null ? layers.sizing(0) : new BloomSizing(partN(), p(),
        BloomSizing.classicalBits(partN(), p()), Integer.parseInt(fields.get("k")), Long.parseLong(fields.get("blocks")));
  }

  /** The fields of a new crawl's meta hash, in the order they are written. */
  static Map<String, String> create(long n, double p, boolean confirm, int shards, boolean spread, String settings,
      Clock clock) {
    long partN = spread ? partN(n, shards) : n;
    BloomSizing sizing = spread ? new PartLayers(partN, p).sizing(0) : BloomSizing.of(partN, p);
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("format", FORMAT);
    fields.put("version", Integer.toString(VERSION));
    fields.put("n", Long.toString(n));
    fields.put("p", Double.toString(p));
    fields.put("seed", Long.toString(BloomFilter.DEFAULT_SEED));
    fields.put("blocks", Long.toString(sizing.blocks()));
    fields.put("k", Integer.toString(sizing.hashCount()));
    fields.put("shards", Integer.toString(shards));
    fields.put("spread", Boolean.toString(spread));
    fields.put("confirm", Boolean.toString(confirm));
    fields.put("bucketBits", Integer.toString(bucketBits(partN)));
    fields.put("settings", settings);
    fields.put("created", clock.instant().toString());
    return fields;
  }

  /**
   * The meta hash of the crawl {@code name}, of this build's version of the format.
   *
   * @throws SharedCrawlException if there is no such crawl, the key is not a sievecrawl crawl's, or its version is
   *     another
   */
  static CrawlMeta read(RedisClusterCommands<String, byte[]> redis, String uri, String name)
      throws SharedCrawlException {
    return new CrawlMeta(read(redis, uri, name, true));
  }

  /** The crawl's meta hash; {@code thisVersion}: refused unless this build's version of the format. */
  static Map<String, String> read(RedisClusterCommands<String, byte[]> redis, String uri, String name,
      boolean thisVersion) throws SharedCrawlException {
    Map<String, byte[]> raw = redis.hgetall(CrawlKeys.key(name, "meta"));
    if (raw == null || raw.isEmpty()) {
      throw new SharedCrawlException(SharedCrawlException.Kind.NO_SUCH_CRAWL, "no shared crawl named '" + name
          + "' in " + uri + "; start one with 'sievecrawl crawl SEEDS --redis " + uri + " --crawl-name " + name + "'");
    }
    Map<String, String> meta = new HashMap<>();
    raw.forEach((k, v) -> meta.put(k, new String(v, StandardCharsets.UTF_8)));
    if (!FORMAT.equals(meta.get("format"))) {
      throw new SharedCrawlException(SharedCrawlException.Kind.MISMATCH, CrawlKeys.key(name, "meta") + " in " + uri
          + " is not a sievecrawl crawl");
    }
    if (thisVersion && !Integer.toString(VERSION).equals(meta.get("version"))) {
      throw new SharedCrawlException(SharedCrawlException.Kind.MISMATCH, "the shared crawl '" + name + "' has format"
          + " version " + meta.get("version") + ", but this build reads version " + VERSION + ": finish it with the"
          + " build that made it, or remove it with '" + SharedCrawlRemoval.command(uri, name) + "'");
    }
    return meta;
  }

  long n() {
    return Long.parseLong(fields.get("n"));
  }

  double p() {
    return Double.parseDouble(fields.get("p"));
  }

  int shards() {
    return Integer.parseInt(fields.get("shards"));
  }

  /**
   * Whether the crawl is spread over a Redis Cluster: a hash tag per shard, and a part of the filter and of the exact
   * store per shard, each sized for n / shards; otherwise one filter and one store for n, under the crawl's tag.
   */
  boolean spread() {
    return Boolean.parseBoolean(fields.getOrDefault("spread", "false"));
  }

  /** The filter's parts: one per shard when spread, else one. */
  int parts() {
    return spread() ? shards() : 1;
  }

  /** The capacity of one part of the filter: n / shards rounded up when spread, else n. */
  long partN() {
    return spread() ? partN(n(), shards()) : n();
  }

  private static long partN(long n, int shards) {
    return Math.max(1, (n + shards - 1) / shards);
  }

  /** Whether an exact store of fingerprints, in Redis beside the filter, confirms the filter's "maybe seen" answers. */
  boolean confirmed() {
    return Boolean.parseBoolean(fields.getOrDefault("confirm", "false"));
  }

  /**
   * The exact store's bucket of {@code fingerprint} in layer {@code layer} of its part: its top bits, so that a bucket
   * holds about 128 at the layer's capacity (at n when not spread).
   */
  long bucket(int layer, long fingerprint) {
    int bits = layer == 0 ? Integer.parseInt(fields.getOrDefault("bucketBits", "0")) : layers.bucketBits(layer);
    return bits == 0 ? 0 : fingerprint >>> (Long.SIZE - bits);
  }

  /** The layers a part of the filter may grow, when spread; {@code null} on one Redis (one filter for n). */
  PartLayers layers() {
    return layers;
  }

  /** log2 of the bucket count: the largest power of two that leaves at least 128 fingerprints per bucket at n. */
  static int bucketBits(long n) {
    long buckets = Math.max(1, n / FINGERPRINTS_PER_BUCKET);
    return Math.min(MAX_BUCKET_BITS, Long.SIZE - 1 - Long.numberOfLeadingZeros(buckets));
  }

  long seed() {
    return Long.parseLong(fields.get("seed"));
  }

  /** The sizing of one part of the filter (the whole filter's when not spread). */
  BloomSizing sizing() {
    return sizing;
  }

  /** The parts together, as one filter of their bits: for the crawl's counters. */
  BloomSizing wholeSizing() {
    return parts() == 1 ? sizing : new BloomSizing(n(), p(), BloomSizing.classicalBits(n(), p()),
        sizing.hashCount(), sizing.blocks() * parts());
  }

  /** The settings the crawl was started with, as a config file. */
  String settings() {
    return fields.getOrDefault("settings", "");
  }
}

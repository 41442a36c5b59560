package io.sievecrawl.sieve.redis;

import io.sievecrawl.sieve.Shards;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The names of a shared crawl's keys (see the package notes). Crawl-wide keys carry the hash tag {@code {NAME}}. A
 * shard's keys (its queues, line, flight, lease, counts, and in a spread crawl its part of the filter and of the
 * exact store) carry its shard's tag: {@code {NAME:S}} in a crawl spread over a Redis Cluster, so that the shards
 * hash to different slots and spread over the masters while a script on one shard touches one slot; {@code {NAME}}
 * on one Redis, where slots do not matter and one script may serve several shards.
 */
final class CrawlKeys {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  private final String name;
  private final boolean spread;
  private final int shards;

  CrawlKeys(String name, boolean spread, int shards) {
    this.name = name;
    this.spread = spread;
    this.shards = shards;
  }

  /** The shard of {@code origin}: its queue's, and that of what the crawl keeps of it (robots rules, its budget). */
  int shardOf(String origin) {
    return shardOf(origin, shards);
  }

  /** The shard of {@code origin} among {@code shards} ({@link Shards#of}). */
  static int shardOf(String origin, int shards) {
    return Shards.of(origin.hashCode(), shards);
  }

  /** What the crawl keeps of {@code origin} for a while, of {@code kind} (robots rules), under its shard's tag. */
  String perOrigin(String kind, String origin) {
    return shardKey(shardOf(origin), kind + ":" + origin);
  }

  /** The per-origin page counts of the shard's origins, a count-min sketch (one for all shards on one Redis). */
  String budget(int shard) {
    return shardKey(shard, "budget");
  }

  /** The key {@code suffix} of the crawl {@code name}. */
  static String key(String name, String suffix) {
    return "sievecrawl:{" + name + "}:" + suffix;
  }

  /** The key {@code suffix} of shard {@code shard} of the crawl {@code name}, spread over a cluster or not. */
  static String shardKey(String name, boolean spread, int shard, String suffix) {
    return spread ? "sievecrawl:{" + name + ":" + shard + "}:" + suffix : key(name, suffix);
  }

  /** The match patterns of every key of the crawl {@code name}, of either layout and of older formats. */
  static List<String> patterns(String name) {
    return List.of(key(name, "*"), "sievecrawl:{" + name + ":*}:*");
  }

  /** @throws SharedCrawlException unless {@code name} is 1 to 100 letters, digits, dots, dashes or underscores */
  static void checkName(String name) throws SharedCrawlException {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new SharedCrawlException(SharedCrawlException.Kind.NO_SUCH_CRAWL, "a crawl name is 1 to 100 letters,"
          + " digits, dots, dashes or underscores, not '" + name + "'");
    }
  }

  /** Whether each shard has a hash tag of its own (a crawl spread over a cluster). */
  boolean spread() {
    return spread;
  }

  /** This crawl's crawl-wide key {@code suffix}. */
  String key(String suffix) {
    return key(name, suffix);
  }

  private String shardKey(int shard, String suffix) {
    return shardKey(name, spread, shard, suffix);
  }

  /** The hash tag group of {@code shard}: shards of one group may share a script (all of them on one Redis). */
  int group(int shard) {
    return spread ? shard : 0;
  }

  /** {@code shards} split into groups that may share a script, in their order. */
  List<List<Integer>> groups(List<Integer> shards) {
    if (!spread) {
      return shards.isEmpty() ? List.of() : List.of(shards);
    }
    List<List<Integer>> groups = new ArrayList<>(shards.size());
    for (int shard : shards) {
      groups.add(List.of(shard));
    }
    return groups;
  }

  /** The origin's list of waiting tasks (its shard's tag). */
  String list(int shard, String origin) {
    return shardKey(shard, "o:" + origin);
  }

  /** The shard's line of origins waiting to be checked out. */
  String line(int shard) {
    return shardKey(shard, "line:" + shard);
  }

  /** The shard's set of origins whose lists may hold tasks. */
  String origins(int shard) {
    return shardKey(shard, "origins:" + shard);
  }

  /** The shard's hash of claimed tasks not acknowledged yet. */
  String flight(int shard) {
    return shardKey(shard, "flight:" + shard);
  }

  /** The shard's lease: the agent that owns it, with an expiry. */
  String lease(int shard) {
    return shardKey(shard, "lease:" + shard);
  }

  /**
   * The shard's hash: format version, its counters (admitted, dropped, rescued, open; in a spread crawl the set bits
   * of its part of the filter and its capacity warnings) and its last owner. Made when the crawl is created; a shard
   * whose hash is gone lost its data.
   */
  String shard(int shard) {
    return shardKey(shard, "shard:" + shard);
  }

  /**
   * Chunk {@code chunk} of layer {@code layer} of the filter part of {@code shard} (the whole filter's on one Redis,
   * which has one layer): {@code f:C} in the first layer, {@code f:L:C} in layer L of a part that grew.
   */
  String chunk(int shard, int layer, long chunk) {
    return shardKey(shard, layer == 0 ? "f:" + chunk : "f:" + layer + ":" + chunk);
  }

  /**
   * The exact store's bucket {@code bucket} of layer {@code layer} of {@code shard}'s part (the whole store's on one
   * Redis): {@code x:B} in the first layer, {@code x:L:B} in layer L.
   */
  String bucket(int shard, int layer, long bucket) {
    return shardKey(shard, layer == 0 ? "x:" + bucket : "x:" + layer + ":" + bucket);
  }
}

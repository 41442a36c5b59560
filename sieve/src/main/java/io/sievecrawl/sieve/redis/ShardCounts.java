package io.sievecrawl.sieve.redis;

import io.lettuce.core.KeyValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The shards' hashes read together: their format version, and their counters, which summed are the crawl's. Each
 * shard's counters change atomically with its tasks (in the scripts that admit and acknowledge them), but no read
 * sees all shards at one moment, so whether the crawl is finished takes two passes ({@link #nothingOpen}).
 */
final class ShardCounts {
  /*
   * Design notes.
   *
   * 1. The end. A task is made only by an admission, which an open task's page makes (its links are offered before
   *    it is acknowledged), or by the seeding agent before it clears "seeding". Two passes over every shard, after
   *    "seeding" was read gone, that both find nothing open and the same count admitted in each shard prove that
   *    nothing is open and nothing will be: take a task X admitted after the second read of its shard. Its page P was
   *    open when X was offered, after every first read. P admitted before the first read of its shard and open then
   *    contradicts that read's zero; P admitted between its shard's two reads contradicts the unchanged count; so P
   *    was admitted after the second read of its shard too, earlier than X. Following pages back that way ends at a
   *    seed, admitted before "seeding" was cleared, before the first pass: a contradiction. (A double collect of
   *    counters that only grow.) A shard's open count is its admitted less its done, both counters that only grow,
   *    read together in one HMGET: an admission adds to admitted and an acknowledgement to done atomically with the
   *    task's queueing and its leaving the flight hash, so the difference read is the shard's open tasks at the moment
   *    of the read, as a counter of open tasks read then would say.
   * 2. A shard whose hash is gone lost its data (its master restarted empty, or was flushed): that is the crawl lost,
   *    as when the meta hash is gone.
   */
  /** The fields read: the version, the counters, the part's layers and each layer's set bits (the first's "bits"). */
  static final String[] FIELDS = fields();
  /** The fields the end check reads: the version (a hash gone), admitted, dropped and done ({@link #readOpen}). */
  private static final String[] OPEN_FIELDS = java.util.Arrays.copyOf(FIELDS, 4);
  private static final int FIRST_BITS = 5;
  private static final int LAYERS = 6;

  private static String[] fields() {
    List<String> fields = new ArrayList<>(List.of("version", "admitted", "dropped", "done", "rescued", "bits",
        "layers"));
    for (int layer = 1; layer < PartLayers.MAX_LAYERS; layer++) {
      fields.add(PartLayers.bitsField(layer));
    }
    return fields.toArray(String[]::new);
  }

  /**
   * One shard's hash as read: present or not, and its counters. Its tasks admitted and done are read together (one
   * HMGET, atomic), so the open ones, admitted less done, are those of one moment. Dropped and rescued URLs are
   * counted in the hash of the first shard an admission touched: only their sums mean anything.
   */
  record Shard(String version, long admitted, long dropped, long done, long rescued, long[] layerBits) {
    boolean present() {
      return version != null;
    }

    /** The set bits of the shard's part of the filter, its layers' together (of the whole filter's on one Redis). */
    long bits() {
      long bits = 0;
      for (long layer : layerBits) {
        bits += layer;
      }
      return bits;
    }

    /** Tasks admitted to the shard and not acknowledged yet. */
    long open() {
      return admitted - done;
    }
  }

  /** The counters summed over shards; the set bits of every part. */
  record Totals(long admitted, long dropped, long open, long rescued, long bits) {}

  private ShardCounts() {}

  static Shard of(List<KeyValue<String, byte[]>> values) {
    int layers = (int) Math.max(1, Math.min(PartLayers.MAX_LAYERS, number(values, LAYERS)));
    long[] layerBits = new long[layers];
    layerBits[0] = number(values, FIRST_BITS);
    for (int layer = 1; layer < layers; layer++) {
      layerBits[layer] = number(values, LAYERS + layer);
    }
    return new Shard(values.get(0).hasValue() ? new String(values.get(0).getValue(), StandardCharsets.US_ASCII)
        : null, number(values, 1), number(values, 2), number(values, 3), number(values, 4), layerBits);
  }

  private static long number(List<KeyValue<String, byte[]>> values, int i) {
    return i < values.size() && values.get(i).hasValue()
        ? Long.parseLong(new String(values.get(i).getValue(), StandardCharsets.US_ASCII)) : 0;
  }

  /** Every shard's hash, read one after the other on {@code redis} (when an agent connects). */
  static List<Shard> read(RedisClusterCommands<String, byte[]> redis, String name, CrawlMeta meta) {
    List<Shard> shards = new ArrayList<>(meta.shards());
    for (int s = 0; s < meta.shards(); s++) {
      shards.add(of(redis.hmget(CrawlKeys.shardKey(name, meta.spread(), s, "shard:" + s), FIELDS)));
    }
    return shards;
  }

  /**
   * Every shard's hash, read on the crawl's connection riding out an outage: in one script on one Redis, at once
   * (a read per shard, each of its slot) when spread.
   */
  static List<Shard> read(RedisCrawl crawl) {
    return read(crawl, FIELDS);
  }

  /**
   * As {@link #read(RedisCrawl)}, reading only what tells the open tasks (the version, admitted, dropped, done): the
   * end check's reads, which idle agents make several times a second. The filter's bits read as none.
   */
  static List<Shard> readOpen(RedisCrawl crawl) {
    return read(crawl, OPEN_FIELDS);
  }

  private static List<Shard> read(RedisCrawl crawl, String[] fields) {
    if (!crawl.spread()) {
      String[] keys = new String[crawl.shards()];
      for (int s = 0; s < keys.length; s++) {
        keys[s] = crawl.keys().shard(s);
      }
      byte[][] args = new byte[fields.length][];
      for (int f = 0; f < fields.length; f++) {
        args[f] = RedisCrawl.bytes(fields[f]);
      }
      List<byte[]> values = crawl.eval(Scripts.READ_SHARDS, ScriptOutputType.MULTI, keys, args);
      List<Shard> shards = new ArrayList<>(keys.length);
      for (int s = 0; s < keys.length; s++) {
        List<KeyValue<String, byte[]>> one = new ArrayList<>(fields.length);
        for (int f = 0; f < fields.length; f++) {
          byte[] value = values.get(s * fields.length + f);
          one.add(value == null ? KeyValue.empty(fields[f]) : KeyValue.just(fields[f], value));
        }
        shards.add(of(one));
      }
      return present(crawl, shards);
    }
    List<Supplier<Shard>> reads = new ArrayList<>(crawl.shards());
    for (int s = 0; s < crawl.shards(); s++) {
      String key = crawl.keys().shard(s);
      reads.add(() -> of(crawl.call(redis -> redis.hmget(key, fields))));
    }
    return present(crawl, Fanout.all(reads));
  }

  private static List<Shard> present(RedisCrawl crawl, List<Shard> shards) {
    if (!shards.stream().allMatch(Shard::present)) {
      throw crawl.lost(); // note 2
    }
    return shards;
  }

  /** Every shard's hash read at once without waiting for Redis; {@code null} when it cannot answer now. */
  static List<Shard> readNow(RedisCrawl crawl) {
    List<Supplier<Shard>> reads = new ArrayList<>(crawl.shards());
    for (int s = 0; s < crawl.shards(); s++) {
      String key = crawl.keys().shard(s);
      reads.add(() -> {
        List<KeyValue<String, byte[]>> values = crawl.readNow(redis -> redis.hmget(key, FIELDS));
        return values == null ? null : of(values);
      });
    }
    List<Shard> shards = Fanout.all(reads);
    return shards.contains(null) ? null : shards;
  }

  /** @throws SharedCrawlException if a shard's hash is missing or of another format version */
  static void checkVersions(List<Shard> shards, String uri, String name) throws SharedCrawlException {
    for (int s = 0; s < shards.size(); s++) {
      String version = shards.get(s).version();
      if (version == null) {
        throw new SharedCrawlException(SharedCrawlException.Kind.LOST, "the shared crawl '" + name + "' in " + uri
            + " lost shard " + s + " (its hash is gone: the Redis serving it restarted without persistence, or was"
            + " flushed); remove it with '" + SharedCrawlRemoval.command(uri, name) + "' and start it again");
      }
      if (!Integer.toString(CrawlMeta.VERSION).equals(version)) {
        throw new SharedCrawlException(SharedCrawlException.Kind.MISMATCH, "the shared crawl '" + name + "' has"
            + " format version " + version + " in shard " + s + ", but this build reads version " + CrawlMeta.VERSION);
      }
    }
  }

  /** Whether a crawl (its seeds queued, URLs admitted) has nothing open, by two passes (note 1). */
  static boolean finished(RedisClusterCommands<String, byte[]> redis, String name, CrawlMeta meta) {
    if (redis.hexists(CrawlKeys.key(name, "counters"), "seeding")) {
      return false;
    }
    List<Shard> first = read(redis, name, meta);
    return sum(first).admitted() > 0 && nothingOpen(first, read(redis, name, meta));
  }

  /**
   * Whether two passes over the shards, the first complete before the second began and both after "seeding" was
   * read gone, prove that nothing is open and nothing will be (note 1).
   */
  static boolean nothingOpen(List<Shard> first, List<Shard> second) {
    for (int s = 0; s < first.size(); s++) {
      if (first.get(s).open() > 0 || second.get(s).open() > 0
          || first.get(s).admitted() != second.get(s).admitted()) {
        return false;
      }
    }
    return true;
  }

  /** The counters of {@code shards} summed. */
  static Totals sum(List<Shard> shards) {
    long admitted = 0;
    long dropped = 0;
    long open = 0;
    long rescued = 0;
    long bits = 0;
    for (Shard shard : shards) {
      admitted += shard.admitted();
      dropped += shard.dropped();
      open += shard.open();
      rescued += shard.rescued();
      bits += shard.bits();
    }
    return new Totals(admitted, dropped, open, rescued, bits);
  }
}

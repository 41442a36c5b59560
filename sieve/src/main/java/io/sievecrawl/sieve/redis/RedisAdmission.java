package io.sievecrawl.sieve.redis;

import io.lettuce.core.ScriptOutputType;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomSizing;
import io.sievecrawl.sieve.TaskCodec;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Admits a batch of tasks to a shared crawl in one script ({@link Scripts#ADMIT}): each URL's bits are tested and set
 * in the filter (and its fingerprint in the exact store, when one confirms the filter), and the new tasks are
 * appended to their origin's list, the origin lined up in its shard if its list was empty.
 */
final class RedisAdmission<T> {
  /**
   * Tasks per admission script at most: a script blocks every other agent's commands while it runs, and a call
   * carries about 8 + k arguments a task, so a sitemap's 50,000 URLs go in parts.
   */
  static final int MAX_BATCH = 1_000;
  /**
   * Blocks of the filter per Redis key: 65,472 bytes, the most whose string (with Redis's 6 bytes around it) fits the
   * allocator's 64 KB size class; 1,024 blocks took the next class, 80 KB.
   */
  static final int CHUNK_BLOCKS = 1023;

  private final RedisCrawl crawl;
  private final TaskCodec<T> codec;
  private final Function<? super T, ? extends CharSequence> url;
  private final Function<? super T, String> queueKey;
  private final ToIntFunction<String> shardOf;
  private final BloomSizing sizing;
  private final long seed;
  private final boolean confirmed;

  /** What one script did: which tasks it admitted, by index, whether an origin came into line, the filter's bits. */
  record Batch(BitSet admitted, boolean linedUp, long bits) {}

  RedisAdmission(RedisCrawl crawl, TaskCodec<T> codec, Function<? super T, ? extends CharSequence> url,
      Function<? super T, String> queueKey, ToIntFunction<String> shardOf) {
    this.crawl = crawl;
    this.codec = codec;
    this.url = url;
    this.queueKey = queueKey;
    this.shardOf = shardOf;
    this.sizing = crawl.sizing();
    this.seed = crawl.seed();
    this.confirmed = crawl.confirmed();
  }

  /** Admits {@code tasks}, at most {@link #MAX_BATCH} and at least one, in one round trip. */
  Batch admit(List<T> tasks) {
    LinkedHashMap<String, Integer> keys = new LinkedHashMap<>();
    keys.put(crawl.key("meta"), 1);
    keys.put(crawl.key("counters"), 2);
    CrawlKeys names = crawl.keys();
    List<byte[]> args = new ArrayList<>();
    args.add(RedisCrawl.bytes(Integer.toString(tasks.size())));
    args.add(RedisCrawl.bytes(confirmed ? "1" : "0"));
    for (T task : tasks) {
      BloomFilter.Probe probe = BloomFilter.probe(url.apply(task), sizing, seed);
      int chunk = probe.block() / CHUNK_BLOCKS;
      int blockOffset = (probe.block() % CHUNK_BLOCKS) * (BloomSizing.BLOCK_BITS / Byte.SIZE);
      String origin = queueKey.apply(task);
      int shard = shardOf.applyAsInt(origin);
      args.add(index(keys, crawl.key("f:" + chunk)));
      args.add(index(keys, names.list(origin)));
      args.add(index(keys, names.line(shard)));
      args.add(index(keys, names.origins(shard)));
      args.add(RedisCrawl.bytes(Integer.toString(blockOffset)));
      args.add(RedisCrawl.bytes(Integer.toString(probe.bits().length)));
      for (int bit : probe.bits()) {
        args.add(RedisCrawl.bytes(Integer.toString(bit)));
      }
      args.add(codec.encode(task));
      args.add(RedisCrawl.bytes(origin));
      args.add(RedisCrawl.bytes(CrawlKeys.openField(shard)));
      if (confirmed) {
        args.add(index(keys, crawl.bucketKey(probe.fingerprint())));
        args.add(RedisCrawl.bytes(Long.toString(probe.fingerprint())));
      }
    }
    List<Long> result = crawl.eval(Scripts.ADMIT, ScriptOutputType.MULTI, keys.keySet().toArray(String[]::new),
        args.toArray(byte[][]::new));
    BitSet admitted = new BitSet(tasks.size());
    for (int i = 2; i < result.size(); i++) {
      if (result.get(i) == 1) {
        admitted.set(i - 2);
      }
    }
    return new Batch(admitted, result.get(1) > 0, result.get(0));
  }

  /** The script's argument naming {@code key}: its place among the script's keys, added if new. */
  private static byte[] index(Map<String, Integer> keys, String key) {
    return RedisCrawl.bytes(Integer.toString(keys.computeIfAbsent(key, k -> keys.size() + 1)));
  }
}

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
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Admits a batch of tasks to a shared crawl ({@link Scripts#ADMIT}): each URL's bits are tested and set in the filter
 * (and its fingerprint in the exact store, when one confirms the filter), and the new tasks are appended to their
 * origin's list, the origin lined up in its shard if its list was empty. On one Redis the batch is one script; in a
 * crawl spread over a cluster, one script per shard the batch reaches (its keys are of that shard's slot), all sent
 * at once.
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
  private final CrawlKeys keys;
  private final TaskCodec<T> codec;
  private final Function<? super T, ? extends CharSequence> url;
  private final Function<? super T, String> queueKey;
  private final ToIntFunction<String> shardOf;
  private final BloomSizing sizing;
  private final long seed;
  private final boolean confirmed;

  /**
   * What the scripts did: which tasks they admitted, by index, whether an origin came into line, and the set bits of
   * the filter (by shard when spread: of the shard's part; else under shard 0, of the whole filter).
   */
  record Batch(BitSet admitted, boolean linedUp, Map<Integer, Long> bits) {}

  RedisAdmission(RedisCrawl crawl, TaskCodec<T> codec, Function<? super T, ? extends CharSequence> url,
      Function<? super T, String> queueKey, ToIntFunction<String> shardOf) {
    this.crawl = crawl;
    this.keys = crawl.keys();
    this.codec = codec;
    this.url = url;
    this.queueKey = queueKey;
    this.shardOf = shardOf;
    this.sizing = crawl.sizing();
    this.seed = crawl.seed();
    this.confirmed = crawl.confirmed();
  }

  /** The bytes of chunk {@code chunk} of a part: {@link #CHUNK_BLOCKS} blocks, fewer in its last. */
  private long chunkBytes(int chunk) {
    long blocks = Math.min(CHUNK_BLOCKS, sizing.blocks() - (long) chunk * CHUNK_BLOCKS);
    return blocks * (BloomSizing.BLOCK_BITS / Byte.SIZE);
  }

  /** Admits {@code tasks}, at most {@link #MAX_BATCH} and at least one, in one round trip. */
  Batch admit(List<T> tasks) {
    Map<Integer, Script> scripts = new LinkedHashMap<>();
    for (int i = 0; i < tasks.size(); i++) {
      T task = tasks.get(i);
      String origin = queueKey.apply(task);
      int shard = shardOf.applyAsInt(origin);
      scripts.computeIfAbsent(keys.group(shard), g -> new Script(shard)).add(i, task, origin, shard);
    }
    List<Supplier<List<Long>>> calls = new ArrayList<>(scripts.size());
    for (Script script : scripts.values()) {
      calls.add(script::run);
    }
    List<List<Long>> results = Fanout.all(calls);
    BitSet admitted = new BitSet(tasks.size());
    boolean linedUp = false;
    Map<Integer, Long> bits = new LinkedHashMap<>();
    int at = 0;
    for (Map.Entry<Integer, Script> e : scripts.entrySet()) {
      List<Long> result = results.get(at++);
      List<Integer> indexes = e.getValue().indexes;
      for (int i = 2; i < result.size(); i++) {
        if (result.get(i) == 1) {
          admitted.set(indexes.get(i - 2));
        }
      }
      linedUp |= result.get(1) > 0;
      bits.put(e.getKey(), result.get(0));
    }
    return new Batch(admitted, linedUp, bits);
  }

  /** One admission script: the tasks of one group of shards ({@link CrawlKeys#group}), its keys and arguments. */
  private final class Script {
    final List<Integer> indexes = new ArrayList<>();
    final List<String> scriptKeys = new ArrayList<>();
    final Map<String, Integer> keyIndexes = new LinkedHashMap<>();
    final List<byte[]> args = new ArrayList<>();

    Script(int firstShard) {
      // the marker and the bits' hash: the same key in a spread crawl, which Redis allows
      scriptKeys.add(keys.shard(firstShard));
      scriptKeys.add(keys.spread() ? keys.shard(firstShard) : keys.key("counters"));
      keyIndexes.put(scriptKeys.get(0), 1);
      keyIndexes.putIfAbsent(scriptKeys.get(1), 2);
      args.add(null); // the count, when known
      args.add(RedisCrawl.bytes(confirmed ? "1" : "0"));
    }

    void add(int index, T task, String origin, int shard) {
      indexes.add(index);
      BloomFilter.Probe probe = BloomFilter.probe(url.apply(task), sizing, seed);
      int chunk = probe.block() / CHUNK_BLOCKS;
      int blockOffset = (probe.block() % CHUNK_BLOCKS) * (BloomSizing.BLOCK_BITS / Byte.SIZE);
      args.add(index(keys.chunk(shard, chunk)));
      args.add(index(keys.list(shard, origin)));
      args.add(index(keys.line(shard)));
      args.add(index(keys.origins(shard)));
      args.add(index(keys.shard(shard)));
      args.add(RedisCrawl.bytes(Integer.toString(blockOffset)));
      args.add(RedisCrawl.bytes(Long.toString(chunkBytes(chunk))));
      args.add(RedisCrawl.bytes(Integer.toString(probe.bits().length)));
      for (int bit : probe.bits()) {
        args.add(RedisCrawl.bytes(Integer.toString(bit)));
      }
      args.add(codec.encode(task));
      args.add(RedisCrawl.bytes(origin));
      if (confirmed) {
        args.add(index(keys.bucket(shard, crawl.bucket(probe.fingerprint()))));
        args.add(RedisCrawl.bytes(Long.toString(probe.fingerprint())));
      }
    }

    List<Long> run() {
      args.set(0, RedisCrawl.bytes(Integer.toString(indexes.size())));
      return crawl.eval(Scripts.ADMIT, ScriptOutputType.MULTI, scriptKeys.toArray(String[]::new),
          args.toArray(byte[][]::new));
    }

    /** The script's argument naming {@code key}: its place among the script's keys, added if new. */
    private byte[] index(String key) {
      return RedisCrawl.bytes(Integer.toString(keyIndexes.computeIfAbsent(key, k -> {
        scriptKeys.add(k);
        return scriptKeys.size();
      })));
    }
  }
}

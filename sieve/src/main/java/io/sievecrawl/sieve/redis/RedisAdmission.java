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
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Admits a batch of tasks to a shared crawl ({@link AdmitScript}): each URL's bits are tested and set in the filter
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
  private final PartLayers layers; // null on one Redis: one filter, one layer
  private final AtomicIntegerArray partLayers; // the layers of each part, as last seen here
  private final long seed;
  private final boolean confirmed;

  /**
   * What the scripts did: which tasks they admitted, by index, the shards whose line an origin may have joined (those
   * of the tasks of each script that lined one up), and for each part
   * the batch reached (by shard when spread; else under shard 0, the whole filter) its layers and its newest layer's
   * set bits, and whether this batch grew it.
   */
  record Batch(BitSet admitted, BitSet linedUp, Map<Integer, Part> parts) {}

  /**
   * A part of the filter as a script left it: its layers, its newest layer's set bits (none when the script grew it),
   * and whether it grew.
   */
  record Part(int layers, long newestBits, boolean grew) {}

  RedisAdmission(RedisCrawl crawl, TaskCodec<T> codec, Function<? super T, ? extends CharSequence> url,
      Function<? super T, String> queueKey, ToIntFunction<String> shardOf) {
    this.crawl = crawl;
    this.keys = crawl.keys();
    this.codec = codec;
    this.url = url;
    this.queueKey = queueKey;
    this.shardOf = shardOf;
    this.sizing = crawl.sizing();
    this.layers = crawl.layers();
    this.partLayers = new AtomicIntegerArray(crawl.parts());
    for (int part = 0; part < crawl.parts(); part++) {
      partLayers.set(part, 1);
    }
    this.seed = crawl.seed();
    this.confirmed = crawl.confirmed();
  }

  /** The sizing of layer {@code layer} of a part (of the filter on one Redis, which has one layer). */
  private BloomSizing sizing(int layer) {
    return layers == null ? sizing : layers.sizing(layer);
  }

  /** The bytes of chunk {@code chunk} of a layer: {@link #CHUNK_BLOCKS} blocks, fewer in its last. */
  private static long chunkBytes(BloomSizing sizing, int chunk) {
    long blocks = Math.min(CHUNK_BLOCKS, sizing.blocks() - (long) chunk * CHUNK_BLOCKS);
    return blocks * (BloomSizing.BLOCK_BITS / Byte.SIZE);
  }

  /** Admits {@code tasks}, at most {@link #MAX_BATCH} and at least one, in one round trip (two if a part grew). */
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
    BitSet linedUp = new BitSet();
    Map<Integer, Part> parts = new LinkedHashMap<>();
    int at = 0;
    for (Map.Entry<Integer, Script> e : scripts.entrySet()) {
      Script script = e.getValue();
      List<Long> result = results.get(at++);
      for (int i = 3; i < result.size(); i++) {
        if (result.get(i) == 1) {
          admitted.set(script.tasks.get(i - 3).index());
        }
      }
      if (result.get(1) > 0) {
        script.tasks.forEach(offered -> linedUp.set(offered.shard()));
      }
      int grewTo = result.get(2).intValue();
      if (grewTo > 0) {
        partLayers.accumulateAndGet(script.part, grewTo, Math::max);
      }
      // a part that grew has a newest layer with nothing in it yet
      parts.put(e.getKey(), grewTo > 0 ? new Part(grewTo, 0, true) : new Part(script.probed, result.get(0), false));
    }
    return new Batch(admitted, linedUp, parts);
  }

  private record Offered<T>(int index, T task, String origin, int shard) {}

  /**
   * One admission script: the tasks of one group of shards ({@link CrawlKeys#group}), its keys and arguments for the
   * layers its part has as far as this agent knows; asked again with more when the part has grown meanwhile.
   */
  private final class Script {
    final List<Offered<T>> tasks = new ArrayList<>();
    final int part; // the part of the filter: the shard's when spread, else 0
    int probed; // the part's layers the arguments are for
    final List<String> scriptKeys = new ArrayList<>();
    final Map<String, Integer> keyIndexes = new LinkedHashMap<>();
    final List<byte[]> args = new ArrayList<>();

    Script(int firstShard) {
      this.part = keys.spread() ? firstShard : 0;
    }

    void add(int index, T task, String origin, int shard) {
      tasks.add(new Offered<>(index, task, origin, shard));
    }

    List<Long> run() {
      while (true) {
        build(partLayers.get(part));
        List<Long> result = crawl.eval(AdmitScript.TEXT, ScriptOutputType.MULTI, scriptKeys.toArray(String[]::new),
            args.toArray(byte[][]::new));
        if (result.get(0) >= 0) {
          return result;
        }
        partLayers.set(part, result.get(1).intValue()); // the part grew since this agent last admitted to it
      }
    }

    private void build(int layerCount) {
      probed = layerCount;
      scriptKeys.clear();
      keyIndexes.clear();
      args.clear();
      int firstShard = tasks.get(0).shard();
      // the marker and the bits' hash: the same key in a spread crawl, which Redis allows
      scriptKeys.add(keys.shard(firstShard));
      scriptKeys.add(keys.spread() ? keys.shard(firstShard) : keys.key("counters"));
      keyIndexes.put(scriptKeys.get(0), 1);
      keyIndexes.putIfAbsent(scriptKeys.get(1), 2);
      args.add(RedisCrawl.bytes(Integer.toString(tasks.size())));
      args.add(RedisCrawl.bytes(confirmed ? "1" : "0"));
      args.add(RedisCrawl.bytes(Integer.toString(layers == null ? 0 : layerCount)));
      args.add(RedisCrawl.bytes(Long.toString(layers == null ? 0 : layers.growAtBits(layerCount - 1))));
      args.add(RedisCrawl.bytes(PartLayers.bitsField(layerCount - 1)));
      for (Offered<T> offered : tasks) {
        add(offered, layerCount);
      }
    }

    private void add(Offered<T> offered, int layerCount) {
      int shard = offered.shard();
      CharSequence address = url.apply(offered.task());
      args.add(index(keys.list(shard, offered.origin())));
      args.add(index(keys.line(shard)));
      args.add(index(keys.origins(shard)));
      args.add(index(keys.shard(shard)));
      args.add(codec.encode(offered.task()));
      args.add(RedisCrawl.bytes(offered.origin()));
      BloomFilter.Probe first = BloomFilter.probe(address, sizing(0), seed);
      if (confirmed) { // one fingerprint in every layer's buckets: the first layer's hash
        args.add(RedisCrawl.bytes(Long.toString(first.fingerprint())));
      }
      for (int layer = layerCount - 1; layer >= 0; layer--) { // newest first
        BloomSizing layerSizing = sizing(layer);
        BloomFilter.Probe probe = layer == 0 ? first
            : BloomFilter.probe(address, layerSizing, PartLayers.seed(seed, layer));
        int chunk = probe.block() / CHUNK_BLOCKS;
        int blockOffset = (probe.block() % CHUNK_BLOCKS) * (BloomSizing.BLOCK_BITS / Byte.SIZE);
        args.add(index(keys.chunk(shard, layer, chunk)));
        args.add(RedisCrawl.bytes(Integer.toString(blockOffset)));
        args.add(RedisCrawl.bytes(Long.toString(chunkBytes(layerSizing, chunk))));
        args.add(RedisCrawl.bytes(Integer.toString(probe.bits().length)));
        for (int bit : probe.bits()) {
          args.add(RedisCrawl.bytes(Integer.toString(bit)));
        }
        if (confirmed) {
          args.add(index(keys.bucket(shard, layer, crawl.bucket(layer, first.fingerprint()))));
        }
      }
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

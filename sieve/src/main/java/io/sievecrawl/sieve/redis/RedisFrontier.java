package io.sievecrawl.sieve.redis;

import io.lettuce.core.Consumer;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomSizing;
import io.sievecrawl.sieve.CapacityMonitor;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.SieveStats;
import io.sievecrawl.sieve.TaskCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The frontier of a crawl shared by agents through Redis: one URL filter and one queue per shard, in Redis; this
 * agent works the shards it holds a lease on.
 *
 * <p>An offer runs one script per batch (a page's links: one round trip) that tests and sets each URL's bits in the
 * filter and appends the new ones to their shard's stream, atomically: of any number of agents offering a new URL
 * at once, exactly one admits it, and no URL is admitted without being queued. A task's shard comes from its origin
 * ({@code shardKey}), so one origin is worked by one agent at a time and politeness holds across machines. Tasks are
 * read through the stream's consumer group and stay pending until acknowledged: when an agent dies, the agent that
 * takes its shards over claims them and does them again.
 */
public final class RedisFrontier<T> implements Frontier<T> {
  /**
   * Tasks per admission script at most: a script blocks every other agent's commands while it runs, and a call
   * carries about 5 + k arguments a task, so a sitemap's 50,000 URLs go in parts.
   */
  private static final int MAX_BATCH = 1_000;

  /*
   * Design notes.
   *
   * 1. Claim ids: (entry time in ms << 20) | a local counter, so that ids of entries appended later are larger (the
   *    scheduler's requeue pass relies on it) and ids are unique within this agent's run.
   * 2. One lock guards the read buffer and the claims in flight; Redis calls for offers and acknowledgements do not
   *    take it (the connection is thread-safe), reading streams does (it fills the buffer).
   * 3. Reading streams that hold nothing is rate-limited (EMPTY_READ_PAUSE_NANOS) and so is the global "finished"
   *    check, so idle workers do not hammer Redis.
   */
  private static final int CHUNK_BLOCKS = 1024; // 64 KB of filter per Redis key
  private static final int READ_PER_SHARD = 32;
  private static final int MAX_BUFFERED = 2_048;
  private static final long EMPTY_READ_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
  private static final long FINISHED_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final RedisCrawl crawl;
  private final TaskCodec<T> codec;
  private final Function<? super T, ? extends CharSequence> url;
  private final Function<? super T, String> shardKey;
  private final BloomSizing sizing;
  private final long seed;
  private final ShardLeases leases;
  private final CapacityMonitor capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Buffered> buffer = new ArrayDeque<>(); // guarded by lock
  private final Map<Long, InFlight> inFlight = new HashMap<>(); // guarded by lock
  private final Map<Integer, Integer> inFlightPerShard = new HashMap<>(); // guarded by lock
  private long counter; // guarded by lock
  private long lastEmptyRead; // guarded by lock
  private volatile boolean stopped;
  private volatile long bits;
  private volatile long finishedCheckedAt;
  private volatile boolean finished;

  private record Buffered(int shard, String entryId, byte[] task) {}

  private record InFlight(int shard, String entryId) {}

  private RedisFrontier(RedisCrawl crawl, TaskCodec<T> codec, Function<? super T, ? extends CharSequence> url,
      Function<? super T, String> shardKey, Duration leaseTtl, String capacityKey) {
    this.crawl = crawl;
    this.codec = codec;
    this.url = url;
    this.shardKey = shardKey;
    this.sizing = crawl.sizing();
    this.seed = crawl.seed();
    this.leases = new ShardLeases(crawl, leaseTtl, new ShardLeases.Listener() {
      @Override
      public void acquired(int shard) {
        claimLeftovers(shard);
      }

      @Override
      public boolean idle(int shard) {
        return idleShard(shard);
      }
    });
    this.capacity = new CapacityMonitor(sizing, () -> bits, this::firstToWarn, capacityKey);
  }

  /**
   * The frontier of {@code crawl}, taking this agent's share of the shards now.
   *
   * @param shardKey what decides a task's shard: its origin, so that an origin is worked by one agent at a time
   * @param leaseTtl how long a shard stays with an agent that stopped renewing its lease (a dead one)
   */
  public static <T> RedisFrontier<T> open(RedisCrawl crawl, TaskCodec<T> codec,
      Function<? super T, ? extends CharSequence> url, Function<? super T, String> shardKey, Duration leaseTtl,
      String capacityKey) {
    RedisFrontier<T> frontier = new RedisFrontier<>(Objects.requireNonNull(crawl), codec, url, shardKey, leaseTtl,
        capacityKey);
    frontier.leases.start();
    return frontier;
  }

  int shardOf(T task) {
    return shardOf(shardKey.apply(task));
  }

  private int shardOf(String key) {
    return Math.floorMod(key.hashCode() * 0x9E3779B9, crawl.shards());
  }

  @Override
  public boolean offer(T task) {
    return offerAll(List.of(task)).get(0);
  }

  @Override
  public BitSet offerAll(List<T> tasks) {
    if (tasks.size() > MAX_BATCH) { // a sitemap's 50,000 URLs, or a page under a raised crawl.max-links-per-page
      BitSet admitted = new BitSet(tasks.size());
      for (int from = 0; from < tasks.size(); from += MAX_BATCH) {
        BitSet part = offerAll(tasks.subList(from, Math.min(tasks.size(), from + MAX_BATCH)));
        for (int i = part.nextSetBit(0); i >= 0; i = part.nextSetBit(i + 1)) {
          admitted.set(from + i);
        }
      }
      return admitted;
    }
    BitSet admitted = new BitSet(tasks.size());
    if (tasks.isEmpty()) {
      return admitted;
    }
    checkUsable();
    LinkedHashMap<String, Integer> keys = new LinkedHashMap<>();
    keys.put(crawl.key("meta"), 1);
    keys.put(crawl.key("counters"), 2);
    List<byte[]> args = new ArrayList<>();
    args.add(RedisCrawl.bytes(Integer.toString(tasks.size())));
    for (T task : tasks) {
      BloomFilter.Probe probe = BloomFilter.probe(url.apply(task), sizing, seed);
      int chunk = probe.block() / CHUNK_BLOCKS;
      int blockOffset = (probe.block() % CHUNK_BLOCKS) * (BloomSizing.BLOCK_BITS / Byte.SIZE);
      args.add(index(keys, crawl.key("f:" + chunk)));
      args.add(index(keys, crawl.key("q:" + shardOf(task))));
      args.add(RedisCrawl.bytes(Integer.toString(blockOffset)));
      args.add(RedisCrawl.bytes(Integer.toString(probe.bits().length)));
      for (int bit : probe.bits()) {
        args.add(RedisCrawl.bytes(Integer.toString(bit)));
      }
      args.add(codec.encode(task));
    }
    List<Long> result = crawl.eval(Scripts.ADMIT, ScriptOutputType.MULTI, keys.keySet().toArray(String[]::new),
        args.toArray(byte[][]::new));
    bits = result.get(0);
    for (int i = 1; i < result.size(); i++) {
      if (result.get(i) == 1) {
        admitted.set(i - 1);
      }
    }
    if (!admitted.isEmpty()) {
      finished = false;
      capacity.check();
    }
    return admitted;
  }

  private static byte[] index(Map<String, Integer> keys, String key) {
    return RedisCrawl.bytes(Integer.toString(keys.computeIfAbsent(key, k -> keys.size() + 1)));
  }

  @Override
  public Claim<T> poll() {
    checkUsable();
    lock.lock();
    try {
      if (stopped) {
        return null;
      }
      while (true) {
        Buffered next = buffer.pollFirst();
        if (next == null) {
          if (!refill()) {
            return null;
          }
          continue;
        }
        if (!leases.owns(next.shard())) {
          continue; // the shard went to another agent, which claims this entry from us
        }
        return claim(next);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next task of the key's shard: the first one read already, else the shard's stream is read (that shard
   * alone), so that a scheduler looking for an origin's next task does not send every other origin's back first.
   */
  @Override
  public Claim<T> pollFrom(String key) {
    checkUsable();
    int shard = shardOf(key);
    lock.lock();
    try {
      if (stopped || !leases.owns(shard)) {
        return null;
      }
      Buffered next = takeBuffered(shard);
      if (next == null && read(List.of(shard)) > 0) {
        next = takeBuffered(shard);
      }
      return next == null ? null : claim(next);
    } finally {
      lock.unlock();
    }
  }

  private Buffered takeBuffered(int shard) { // caller holds lock
    for (Iterator<Buffered> it = buffer.iterator(); it.hasNext(); ) {
      Buffered b = it.next();
      if (b.shard() == shard) {
        it.remove();
        return b;
      }
    }
    return null;
  }

  private Claim<T> claim(Buffered next) { // caller holds lock
    long id = (Long.parseLong(next.entryId().substring(0, next.entryId().indexOf('-'))) << 20)
        | (counter++ & 0xFFFFF);
    inFlight.put(id, new InFlight(next.shard(), next.entryId()));
    inFlightPerShard.merge(next.shard(), 1, Integer::sum);
    return new Claim<>(codec.decode(next.task(), 0, next.task().length), id);
  }

  /** Reads new entries of the shards this agent owns; returns whether any came. */
  private boolean refill() { // caller holds lock
    long now = System.nanoTime();
    if (now - lastEmptyRead < EMPTY_READ_PAUSE_NANOS) {
      return false;
    }
    List<Integer> shards = leases.readable();
    if (shards.isEmpty() || read(shards) == 0) {
      lastEmptyRead = now;
      return false;
    }
    return true;
  }

  /** Reads the next new entries of {@code shards} into the buffer; returns how many came. */
  private int read(List<Integer> shards) { // caller holds lock
    @SuppressWarnings("unchecked")
    XReadArgs.StreamOffset<String>[] offsets = new XReadArgs.StreamOffset[shards.size()];
    Map<String, Integer> shardOfKey = new HashMap<>();
    for (int i = 0; i < shards.size(); i++) {
      String key = crawl.key("q:" + shards.get(i));
      offsets[i] = XReadArgs.StreamOffset.lastConsumed(key);
      shardOfKey.put(key, shards.get(i));
    }
    List<StreamMessage<String, byte[]>> messages;
    try {
      messages = crawl.redis().xreadgroup(Consumer.from(RedisCrawl.GROUP, crawl.agentId()),
          XReadArgs.Builder.count(READ_PER_SHARD), offsets);
    } catch (RedisException e) {
      throw crawl.asFailure(e);
    }
    for (StreamMessage<String, byte[]> m : messages) {
      buffer.addLast(new Buffered(shardOfKey.get(m.getStream()), m.getId(), m.getBody().get("t")));
    }
    return messages.size();
  }

  /** Claims the entries the shard's previous owner left unacknowledged, to hand them out first. */
  private void claimLeftovers(int shard) {
    String key = crawl.key("q:" + shard);
    String cursor = "0-0";
    List<Buffered> claimed = new ArrayList<>();
    try {
      do {
        ClaimedMessages<String, byte[]> batch = crawl.redis().xautoclaim(key, XAutoClaimArgs.Builder
            .xautoclaim(Consumer.from(RedisCrawl.GROUP, crawl.agentId()), Duration.ZERO, cursor).count(500));
        for (StreamMessage<String, byte[]> m : batch.getMessages()) {
          if (m.getBody() != null && m.getBody().get("t") != null) {
            claimed.add(new Buffered(shard, m.getId(), m.getBody().get("t")));
          }
        }
        cursor = batch.getId();
      } while (!"0-0".equals(cursor));
    } catch (RedisException e) {
      throw crawl.asFailure(e);
    }
    lock.lock();
    try {
      for (int i = claimed.size() - 1; i >= 0; i--) {
        buffer.addFirst(claimed.get(i)); // the oldest work first
      }
    } finally {
      lock.unlock();
    }
  }

  private boolean idleShard(int shard) {
    lock.lock();
    try {
      buffer.removeIf(b -> b.shard() == shard); // left pending for us: the next owner claims them
      return inFlightPerShard.getOrDefault(shard, 0) == 0;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void complete(Claim<T> claim) {
    InFlight done = release(claim);
    crawl.eval(Scripts.ACK, ScriptOutputType.INTEGER,
        new String[] {crawl.key("q:" + done.shard()), crawl.key("counters")},
        RedisCrawl.bytes(RedisCrawl.GROUP), RedisCrawl.bytes(done.entryId()));
  }

  @Override
  public long requeue(Claim<T> claim) {
    InFlight old = release(claim);
    String stream = crawl.key("q:" + old.shard());
    byte[] newId = crawl.eval(Scripts.REQUEUE, ScriptOutputType.VALUE, new String[] {stream, stream},
        RedisCrawl.bytes(RedisCrawl.GROUP), RedisCrawl.bytes(old.entryId()), codec.encode(claim.task()),
        RedisCrawl.bytes(crawl.agentId()));
    if (newId == null) { // another agent has the task now: nothing goes round, and ids keep growing with time
      return System.currentTimeMillis() << 20;
    }
    String id = new String(newId, StandardCharsets.US_ASCII);
    return Long.parseLong(id.substring(0, id.indexOf('-'))) << 20;
  }

  @Override
  public boolean isShared() {
    return true;
  }

  @Override
  public void abandon(Claim<T> claim) {
    release(claim); // stays pending in Redis: whoever owns the shard next claims it
  }

  private InFlight release(Claim<T> claim) {
    lock.lock();
    try {
      InFlight f = inFlight.remove(claim.id());
      if (f == null) {
        throw new IllegalStateException("claim " + claim.id() + " is not in flight");
      }
      inFlightPerShard.merge(f.shard(), -1, Integer::sum);
      return f;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean owns(Claim<T> claim) {
    lock.lock();
    try {
      InFlight f = inFlight.get(claim.id());
      return f != null && leases.owns(f.shard());
    } finally {
      lock.unlock();
    }
  }

  /** Whether nothing is open anywhere: every task admitted by any agent was acknowledged. */
  @Override
  public boolean isFinished() {
    if (stopped) {
      return true;
    }
    long now = System.nanoTime();
    if (now - finishedCheckedAt > FINISHED_CHECK_NANOS) {
      byte[] open = hget("open");
      finished = open == null || Long.parseLong(new String(open, StandardCharsets.US_ASCII)) <= 0;
      finishedCheckedAt = now;
    }
    return finished;
  }

  @Override
  public void stop() {
    stopped = true;
  }

  @Override
  public SieveStats stats() {
    List<KeyValue<String, byte[]>> values;
    try {
      values = crawl.redis().hmget(crawl.key("counters"), "bits", "admitted", "dropped", "open");
    } catch (RedisException e) {
      throw crawl.asFailure(e);
    }
    long setBits = number(values.get(0));
    long open = number(values.get(3));
    int local;
    lock.lock();
    try {
      local = inFlight.size();
    } finally {
      lock.unlock();
    }
    return SieveStats.of(number(values.get(1)), number(values.get(2)), Math.max(0, open - local), local, sizing,
        setBits, capacity.warnings());
  }

  /** Stops renewing this agent's leases without handing them back, as a killed agent would; for tests. */
  void stopRenewingForTest() {
    leases.stopBeating();
  }

  /** Agents working on the crawl now, this one included. */
  public int liveAgents() {
    return leases.liveAgents();
  }

  private static long number(KeyValue<String, byte[]> value) {
    return value.hasValue() ? Long.parseLong(new String(value.getValue(), StandardCharsets.US_ASCII)) : 0;
  }

  private byte[] hget(String field) {
    try {
      return crawl.redis().hget(crawl.key("counters"), field);
    } catch (RedisException e) {
      throw crawl.asFailure(e);
    }
  }

  private boolean firstToWarn(long level) {
    Long first = crawl.eval(Scripts.FIRST_TO_WARN, ScriptOutputType.INTEGER, new String[] {crawl.key("counters")},
        RedisCrawl.bytes(Long.toString(level)));
    return first == 1;
  }

  private void checkUsable() {
    FrontierFailure failure = leases.failure();
    if (failure != null) {
      throw failure;
    }
  }

  /** Hands the shard leases back (others take over at once); the unacknowledged claims stay pending for them. */
  @Override
  public void close() {
    leases.close();
  }
}

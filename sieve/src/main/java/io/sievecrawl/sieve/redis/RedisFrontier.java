package io.sievecrawl.sieve.redis;

import io.lettuce.core.KeyValue;
import io.lettuce.core.ScriptOutputType;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomSizing;
import io.sievecrawl.sieve.CapacityMonitor;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.SieveStats;
import io.sievecrawl.sieve.TaskCodec;
import io.sievecrawl.sieve.QueueKeys;
import io.sievecrawl.sieve.Ticker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The frontier of a crawl shared by agents through Redis: one URL filter, a list per origin and a line of origins
 * per shard, in Redis; this agent works the shards it holds a lease on.
 *
 * <p>An offer runs one script per batch (a page's links: one round trip) that tests and sets each URL's bits in the
 * filter and appends the new ones to their origin's list, atomically: of any number of agents offering a new URL
 * at once, exactly one admits it, and no URL is admitted without being queued. An origin whose list was empty joins
 * the back of its shard's line. A task's shard comes from its origin, so one origin is worked by one agent at a time
 * and politeness holds across machines. Claimed tasks stay in their shard's flight hash until acknowledged: when an
 * agent dies, the agent that takes its shards over puts them back at the head of their lists and does them again.
 */
public final class RedisFrontier<T> implements Frontier<T> {
  /**
   * Tasks per admission script at most: a script blocks every other agent's commands while it runs, and a call
   * carries about 8 + k arguments a task, so a sitemap's 50,000 URLs go in parts.
   */
  private static final int MAX_BATCH = 1_000;

  /*
   * Design notes.
   *
   * 1. An origin checked out here is read a few tasks at a time (CLAIM_AHEAD): the claimed tasks wait in this
   *    agent's memory, already in the flight hash, so most polls cost no round trip. Releasing the origin puts those
   *    not handed out back at the head of its list (UNCLAIM).
   * 2. An origin may come into line while it is checked out here (an offer found its list empty): nextQueue skips
   *    it, and its release lines it up again if its list holds tasks. Duplicates in a line are harmless for that
   *    reason; a missing entry is not, so the owner of a new shard lines up every origin of the shard that holds
   *    tasks.
   * 3. One lock guards the local state (checked-out origins, claimed tasks, claims in flight); Redis calls for
   *    offers and acknowledgements do not take it (the connection is thread-safe), claiming and releasing do.
   * 4. Asking the lines for an origin when none was found is rate-limited (EMPTY_READ_PAUSE_NANOS) until this agent
   *    admits a task or releases an origin, and so is the global "finished" check, so idle workers do not hammer
   *    Redis.
   * 5. While Redis is unreachable, every call here waits in RedisCrawl.call (workers with it) for up to the outage
   *    grace; a call whose reply was lost is sent again, which Scripts shows to be safe for each script.
   */
  private static final int CLAIM_AHEAD = 8;
  private static final int TAKE_OVER_BATCH = 500; // origins a take-over script handles at most
  private static final long EMPTY_READ_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final long FINISHED_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  private final RedisCrawl crawl;
  private final Ticker ticker; // the agent's: the pauses between empty reads and between checks for the end
  private final TaskCodec<T> codec;
  private final Function<? super T, ? extends CharSequence> url;
  private final Function<? super T, String> queueKey;
  private final BloomSizing sizing;
  private final long seed;
  private final boolean confirmed;
  private final ShardLeases leases;
  private final CapacityMonitor capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, ArrayDeque<Claimed>> checkedOut = new HashMap<>(); // guarded by lock
  private final Map<Long, InFlight> inFlight = new HashMap<>(); // guarded by lock
  private final Map<Integer, Integer> inFlightPerShard = new HashMap<>(); // guarded by lock
  private long counter; // guarded by lock
  private volatile long lastEmptyRead; // when the lines were last found empty
  private volatile boolean linesEmpty; // found empty at lastEmptyRead, and this agent has lined up none since
  private int nextLine; // guarded by lock
  private volatile boolean stopped;
  private volatile long bits;
  private volatile long finishedCheckedAt;
  private volatile boolean finished;
  private volatile List<KeyValue<String, byte[]>> lastCounters = List.of(); // as last read, while Redis is away

  /** A task claimed in Redis (in the flight hash under {@code field}), not handed out yet. */
  private record Claimed(String field, byte[] task) {}

  private record InFlight(int shard, String field) {}

  private RedisFrontier(RedisCrawl crawl, TaskCodec<T> codec, Function<? super T, ? extends CharSequence> url,
      Function<? super T, String> queueKey, Duration leaseTtl, String capacityKey) {
    this.crawl = crawl;
    this.ticker = crawl.ticker();
    this.finishedCheckedAt = ticker.nanos() - FINISHED_CHECK_NANOS - 1; // never checked: the first call asks Redis
    this.codec = codec;
    this.url = url;
    this.queueKey = queueKey;
    this.sizing = crawl.sizing();
    this.seed = crawl.seed();
    this.confirmed = crawl.confirmed();
    this.leases = new ShardLeases(crawl, leaseTtl, new ShardLeases.Listener() {
      @Override
      public void acquired(int shard) {
        takeOver(shard);
      }

      @Override
      public boolean idle(int shard) {
        return idleShard(shard);
      }

      @Override
      public void afterOutage(int shard) {
        lineUp(shard, Map.of());
      }
    });
    this.capacity = new CapacityMonitor(sizing, () -> bits, this::firstToWarn, capacityKey, confirmed);
  }

  /**
   * The frontier of {@code crawl}, taking this agent's share of the shards now.
   *
   * @param queueKey what decides a task's queue and shard: its origin, so that an origin is worked by one agent at a
   *     time
   * @param leaseTtl how long a shard stays with an agent that stopped renewing its lease (a dead one)
   */
  public static <T> RedisFrontier<T> open(RedisCrawl crawl, TaskCodec<T> codec,
      Function<? super T, ? extends CharSequence> url, Function<? super T, String> queueKey, Duration leaseTtl,
      String capacityKey) {
    RedisFrontier<T> frontier = new RedisFrontier<>(Objects.requireNonNull(crawl), codec, url, queueKey, leaseTtl,
        capacityKey);
    frontier.leases.start();
    return frontier;
  }

  /**
   * As {@link #open}, without the heartbeat thread: this agent takes its first share of the shards now, and then
   * renews its leases, takes and hands back shards only when {@link #heartbeat()} is called. For tests, which drive
   * the leases step by step.
   */
  static <T> RedisFrontier<T> openWithoutHeartbeat(RedisCrawl crawl, TaskCodec<T> codec,
      Function<? super T, ? extends CharSequence> url, Function<? super T, String> queueKey, Duration leaseTtl,
      String capacityKey) {
    RedisFrontier<T> frontier = new RedisFrontier<>(Objects.requireNonNull(crawl), codec, url, queueKey, leaseTtl,
        capacityKey);
    frontier.heartbeat();
    return frontier;
  }

  /**
   * Beats once now, as the heartbeat thread does every third of the lease time: renews this agent's leases, hands
   * back what it holds beyond its share and takes free shards, taking over what their previous owner left.
   */
  void heartbeat() {
    leases.beat();
  }

  /** The shard of a queue: its origin's, a lane's too ({@link QueueKeys}), so that an origin is worked by one agent. */
  int shardOf(String queue) {
    return Math.floorMod(QueueKeys.origin(queue).hashCode() * 0x9E3779B9, crawl.shards());
  }

  private String listKey(String origin) {
    return crawl.key("o:" + origin);
  }

  private String lineKey(int shard) {
    return crawl.key("line:" + shard);
  }

  private String originsKey(int shard) {
    return crawl.key("origins:" + shard);
  }

  private String flightKey(int shard) {
    return crawl.key("flight:" + shard);
  }

  /** The field of the counters hash that counts the shard's open tasks (waiting or claimed). */
  static String openField(int shard) {
    return "open:" + shard;
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
    args.add(RedisCrawl.bytes(confirmed ? "1" : "0"));
    for (T task : tasks) {
      BloomFilter.Probe probe = BloomFilter.probe(url.apply(task), sizing, seed);
      int chunk = probe.block() / CHUNK_BLOCKS;
      int blockOffset = (probe.block() % CHUNK_BLOCKS) * (BloomSizing.BLOCK_BITS / Byte.SIZE);
      String origin = queueKey.apply(task);
      int shard = shardOf(origin);
      args.add(index(keys, crawl.key("f:" + chunk)));
      args.add(index(keys, listKey(origin)));
      args.add(index(keys, lineKey(shard)));
      args.add(index(keys, originsKey(shard)));
      args.add(RedisCrawl.bytes(Integer.toString(blockOffset)));
      args.add(RedisCrawl.bytes(Integer.toString(probe.bits().length)));
      for (int bit : probe.bits()) {
        args.add(RedisCrawl.bytes(Integer.toString(bit)));
      }
      args.add(codec.encode(task));
      args.add(RedisCrawl.bytes(origin));
      args.add(RedisCrawl.bytes(openField(shard)));
      if (confirmed) {
        args.add(index(keys, crawl.bucketKey(probe.fingerprint())));
        args.add(RedisCrawl.bytes(Long.toString(probe.fingerprint())));
      }
    }
    List<Long> result = crawl.eval(Scripts.ADMIT, ScriptOutputType.MULTI, keys.keySet().toArray(String[]::new),
        args.toArray(byte[][]::new));
    bits = result.get(0);
    for (int i = 2; i < result.size(); i++) {
      if (result.get(i) == 1) {
        admitted.set(i - 2);
      }
    }
    if (result.get(1) > 0) {
      linesEmpty = false; // an origin came into line
    }
    if (!admitted.isEmpty()) {
      finished = false;
      capacity.check();
    }
    return admitted;
  }

  /**
   * Blocks of the filter per Redis key: 65,472 bytes, the most whose string (with Redis's 6 bytes around it) fits the
   * allocator's 64 KB size class; 1,024 blocks took the next class, 80 KB.
   */
  static final int CHUNK_BLOCKS = 1023;

  private static byte[] index(Map<String, Integer> keys, String key) {
    return RedisCrawl.bytes(Integer.toString(keys.computeIfAbsent(key, k -> keys.size() + 1)));
  }

  /**
   * Checks out the first origin in line among the shards this agent owns, shards taking turns; {@code null} when none
   * is in line (asked again no sooner than {@link #EMPTY_READ_PAUSE_NANOS} after an empty answer).
   */
  @Override
  public String nextQueue() {
    checkUsable();
    lock.lock();
    try {
      long now = ticker.nanos();
      if (stopped || linesEmpty && now - lastEmptyRead < EMPTY_READ_PAUSE_NANOS) {
        return null;
      }
      while (true) {
        List<Integer> shards = leases.readable();
        if (shards.isEmpty()) {
          emptyRead(now);
          return null;
        }
        String[] keys = java.util.stream.Stream.concat(shards.stream().map(this::lineKey),
            shards.stream().map(leases::leaseKey)).toArray(String[]::new);
        List<Object> found = crawl.eval(Scripts.NEXT_QUEUE, ScriptOutputType.MULTI, keys,
            RedisCrawl.bytes(Integer.toString(Math.floorMod(nextLine++, shards.size()))),
            RedisCrawl.bytes(crawl.agentId()));
        if (found == null || found.size() < 2) { // nil, which Lettuce reads as a list of one null
          emptyRead(now);
          return null;
        }
        String origin = new String((byte[]) found.get(1), StandardCharsets.UTF_8);
        if (checkedOut.containsKey(origin)) {
          continue; // came into line while checked out here (note 2)
        }
        checkedOut.put(origin, new ArrayDeque<>());
        return origin;
      }
    } finally {
      lock.unlock();
    }
  }

  private void emptyRead(long now) {
    lastEmptyRead = now;
    linesEmpty = true;
  }

  @Override
  public Claim<T> poll(String origin) {
    checkUsable();
    int shard = shardOf(origin);
    lock.lock();
    try {
      ArrayDeque<Claimed> claimed = checkedOut.get(origin);
      if (stopped || claimed == null || !leases.owns(shard)) {
        return null;
      }
      if (claimed.isEmpty()) {
        claimAhead(origin, shard, claimed);
      }
      Claimed next = claimed.pollFirst();
      if (next == null) {
        return null;
      }
      long id = ++counter;
      inFlight.put(id, new InFlight(shard, next.field()));
      inFlightPerShard.merge(shard, 1, Integer::sum);
      return new Claim<>(codec.decode(next.task(), 0, next.task().length), id);
    } finally {
      lock.unlock();
    }
  }

  private void claimAhead(String origin, int shard, ArrayDeque<Claimed> into) { // caller holds lock
    List<byte[]> args = new ArrayList<>();
    args.add(RedisCrawl.bytes(Integer.toString(CLAIM_AHEAD)));
    args.add(RedisCrawl.bytes(origin));
    args.add(RedisCrawl.bytes(crawl.agentId()));
    String[] fields = new String[CLAIM_AHEAD];
    for (int i = 0; i < CLAIM_AHEAD; i++) {
      fields[i] = crawl.agentId() + ":" + (++counter);
      args.add(RedisCrawl.bytes(fields[i]));
    }
    List<byte[]> tasks = crawl.eval(Scripts.CLAIM, ScriptOutputType.MULTI,
        new String[] {listKey(origin), flightKey(shard), originsKey(shard), leases.leaseKey(shard)},
        args.toArray(byte[][]::new));
    for (int i = 0; i < tasks.size(); i++) {
      into.addLast(new Claimed(fields[i], tasks.get(i)));
    }
  }

  @Override
  public void releaseQueue(String origin) {
    lock.lock();
    try {
      ArrayDeque<Claimed> claimed = checkedOut.remove(origin);
      if (claimed == null) {
        throw new IllegalStateException("queue '" + origin + "' is not checked out");
      }
      int shard = shardOf(origin);
      if (leases.owns(shard)) {
        unclaim(origin, shard, claimed);
        linesEmpty = false; // it may be in line again
      }
    } finally {
      lock.unlock();
    }
  }

  /** Puts the claimed tasks back at the head of the origin's list, and the origin in line if it holds tasks. */
  private void unclaim(String origin, int shard, ArrayDeque<Claimed> claimed) {
    List<byte[]> args = new ArrayList<>();
    args.add(RedisCrawl.bytes(origin));
    for (Claimed c : claimed) {
      args.add(RedisCrawl.bytes(c.field()));
      args.add(c.task());
    }
    crawl.eval(Scripts.UNCLAIM, ScriptOutputType.INTEGER,
        new String[] {listKey(origin), flightKey(shard), lineKey(shard), originsKey(shard)},
        args.toArray(byte[][]::new));
  }

  /**
   * The shard is ours now: the tasks its previous owner claimed and did not finish go back to the head of their
   * origins' lists, and every origin of the shard that holds tasks is lined up (it may have been checked out by
   * the previous owner, and so out of line).
   */
  private void takeOver(int shard) {
    Map<String, byte[]> left = crawl.call(redis -> redis.hgetall(flightKey(shard)));
    Map<String, List<Claimed>> byOrigin = new LinkedHashMap<>();
    left.entrySet().stream()
        .sorted(Map.Entry.comparingByKey(RedisFrontier::compareFields))
        .forEach(e -> {
          T task = codec.decode(e.getValue(), 0, e.getValue().length);
          byOrigin.computeIfAbsent(queueKey.apply(task), o -> new ArrayList<>())
              .add(new Claimed(e.getKey(), e.getValue()));
        });
    lineUp(shard, byOrigin);
  }

  /**
   * Puts {@code claims} back at the head of their origins' lists, and lines up every origin of the shard that holds
   * tasks. Without claims, after an outage: an origin checked out by a call whose reply was lost is back in line.
   */
  private void lineUp(int shard, Map<String, List<Claimed>> claims) {
    Map<String, List<Claimed>> byOrigin = new LinkedHashMap<>(claims);
    for (byte[] origin : crawl.call(redis -> redis.smembers(originsKey(shard)))) {
      byOrigin.putIfAbsent(new String(origin, StandardCharsets.UTF_8), List.of());
    }
    List<String> origins = new ArrayList<>(byOrigin.keySet());
    for (int from = 0; from < origins.size(); from += TAKE_OVER_BATCH) { // a script blocks Redis: keep each short
      List<String> keys = new ArrayList<>(List.of(flightKey(shard), lineKey(shard), originsKey(shard)));
      List<byte[]> args = new ArrayList<>();
      for (String origin : origins.subList(from, Math.min(origins.size(), from + TAKE_OVER_BATCH))) {
        List<Claimed> its = byOrigin.get(origin);
        keys.add(listKey(origin));
        args.add(RedisCrawl.bytes(origin));
        args.add(RedisCrawl.bytes(Integer.toString(its.size())));
        for (Claimed c : its) {
          args.add(RedisCrawl.bytes(c.field()));
          args.add(c.task());
        }
      }
      crawl.eval(Scripts.TAKE_OVER, ScriptOutputType.INTEGER, keys.toArray(String[]::new),
          args.toArray(byte[][]::new));
    }
  }

  /** Orders flight fields ({@code agent:counter}) by agent, then by counter: the order the tasks were claimed in. */
  private static int compareFields(String a, String b) {
    int ca = a.lastIndexOf(':');
    int cb = b.lastIndexOf(':');
    int byAgent = a.substring(0, ca).compareTo(b.substring(0, cb));
    return byAgent != 0 ? byAgent
        : Long.compare(Long.parseLong(a.substring(ca + 1)), Long.parseLong(b.substring(cb + 1)));
  }

  /**
   * Whether the shard can be handed back: nothing of it is in flight here. Tasks claimed ahead for its origins go
   * back to their lists first; the origins stay checked out here until released, but yield nothing more.
   */
  private boolean idleShard(int shard) {
    lock.lock();
    try {
      if (inFlightPerShard.getOrDefault(shard, 0) != 0) {
        return false;
      }
      for (Map.Entry<String, ArrayDeque<Claimed>> e : checkedOut.entrySet()) {
        if (shardOf(e.getKey()) == shard && !e.getValue().isEmpty()) {
          unclaim(e.getKey(), shard, e.getValue());
          e.getValue().clear();
        }
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void complete(Claim<T> claim) {
    InFlight done = release(claim);
    crawl.eval(Scripts.ACK, ScriptOutputType.INTEGER, new String[] {flightKey(done.shard()), crawl.key("counters")},
        RedisCrawl.bytes(done.field()), RedisCrawl.bytes(openField(done.shard())));
  }

  @Override
  public boolean isShared() {
    return true;
  }

  @Override
  public void abandon(Claim<T> claim) {
    release(claim); // stays in the flight hash: whoever owns the shard next hands it out again
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
    long now = ticker.nanos();
    if (now - finishedCheckedAt > FINISHED_CHECK_NANOS) {
      List<KeyValue<String, byte[]>> counters = crawl.call(redis -> redis.hmget(crawl.key("counters"), "open",
          "seeding"));
      // not before the starting agent has queued its seeds: an agent that joins meanwhile would find nothing open
      finished = !counters.get(1).hasValue() && (!counters.get(0).hasValue()
          || Long.parseLong(new String(counters.get(0).getValue(), StandardCharsets.US_ASCII)) <= 0);
      finishedCheckedAt = now;
    }
    return finished;
  }

  @Override
  public void stop() {
    stopped = true;
  }

  /** The counters as Redis has them now, or as last read while Redis cannot answer (stats do not wait for it). */
  @Override
  public SieveStats stats() {
    List<KeyValue<String, byte[]>> read = crawl.readNow(redis -> redis.hmget(crawl.key("counters"), "bits",
        "admitted", "dropped", "open", "rescued"));
    List<KeyValue<String, byte[]>> values = read != null ? read : lastCounters;
    lastCounters = values;
    long setBits = number(values, 0);
    long open = number(values, 3);
    int local;
    int origins;
    lock.lock();
    try {
      local = inFlight.size();
      origins = checkedOut.size();
    } finally {
      lock.unlock();
    }
    return SieveStats.of(number(values, 1), number(values, 2), Math.max(0, open - local), local, origins,
        sizing, setBits, capacity.warnings(), confirmed, number(values, 4));
  }

  /** Agents working on the crawl now, this one included. */
  public int liveAgents() {
    return leases.liveAgents();
  }

  private static long number(List<KeyValue<String, byte[]>> values, int i) {
    return i < values.size() && values.get(i).hasValue()
        ? Long.parseLong(new String(values.get(i).getValue(), StandardCharsets.US_ASCII)) : 0;
  }

  /** The starting agent has queued its seeds: the crawl may now finish when nothing is open. */
  @Override
  public void seedsQueued() {
    crawl.call(redis -> redis.hdel(crawl.key("counters"), "seeding"));
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

  /**
   * Puts the tasks claimed ahead back in their lists and hands the shard leases back (others take over at once);
   * the claims in flight stay in the flight hashes for them.
   */
  @Override
  public void close() {
    lock.lock();
    try {
      for (Map.Entry<String, ArrayDeque<Claimed>> e : checkedOut.entrySet()) {
        int shard = shardOf(e.getKey());
        if (!e.getValue().isEmpty() && leases.owns(shard)) {
          unclaim(e.getKey(), shard, e.getValue());
        }
      }
      checkedOut.clear();
    } catch (FrontierFailure e) {
      // Redis is gone: the claims stay in the flight hashes, and the next owner of their shards does them
    } finally {
      lock.unlock();
    }
    leases.close();
  }
}

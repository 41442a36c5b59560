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
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
   * 3. What this agent holds (checked-out origins, claimed tasks, claims on their way) is in LocalClaims, whose lock
   *    is held for memory only: no call to Redis is made under a lock here, so workers claim, check out and
   *    acknowledge side by side.
   * 4. Asking the lines for an origin when none was found is rate-limited (EMPTY_READ_PAUSE_NANOS) until this agent
   *    admits a task or releases an origin, and so is the global "finished" check, so idle workers do not hammer
   *    Redis.
   * 5. While Redis is unreachable, every call here waits in RedisCrawl.call (workers with it) for up to the outage
   *    grace; a call whose reply was lost is sent again, which Scripts shows to be safe for each script.
   * 6. A shard is used only while its lease holds by this agent's own clock (ShardLeases), and what its flight hash
   *    holds that nobody holds is put back whenever that may have happened (FlightRecovery).
   */
  private static final int CLAIM_AHEAD = 8;
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
  private final ShardKeys keys;
  private final LocalClaims claims;
  private final FlightRecovery recovery;
  private final ShardLeases leases;
  private final CapacityMonitor capacity;
  private final AtomicInteger nextLine = new AtomicInteger();
  private volatile long lastEmptyRead; // when the lines were last found empty
  private volatile boolean linesEmpty; // found empty at lastEmptyRead, and this agent has lined up none since
  private volatile boolean stopped;
  private volatile long bits;
  private volatile long finishedCheckedAt;
  private volatile boolean finished;
  private volatile List<KeyValue<String, byte[]>> lastCounters = List.of(); // as last read, while Redis is away

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
    this.keys = new ShardKeys(crawl);
    this.claims = new LocalClaims(crawl.agentId(), this::shardOf);
    this.recovery = new FlightRecovery(crawl, keys, claims,
        task -> queueKey.apply(codec.decode(task, 0, task.length)));
    this.leases = new ShardLeases(crawl, leaseTtl, new ShardLeases.Listener() {
      @Override
      public long recover(int shard) {
        long back = recovery.recover(shard);
        linesEmpty = false; // its origins are lined up
        return back;
      }

      @Override
      public boolean idle(int shard) {
        return idleShard(shard);
      }

      @Override
      public void lost(int shard) {
        claims.lost(shard);
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
      args.add(index(keys, this.keys.list(origin)));
      args.add(index(keys, this.keys.line(shard)));
      args.add(index(keys, this.keys.origins(shard)));
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
      String[] lineKeys = java.util.stream.Stream.concat(shards.stream().map(keys::line),
          shards.stream().map(keys::lease)).toArray(String[]::new);
      List<Object> found = crawl.eval(Scripts.NEXT_QUEUE, ScriptOutputType.MULTI, lineKeys,
          RedisCrawl.bytes(Integer.toString(Math.floorMod(nextLine.getAndIncrement(), shards.size()))),
          RedisCrawl.bytes(crawl.agentId()));
      if (found == null || found.size() < 2) { // nil, which Lettuce reads as a list of one null
        emptyRead(now);
        return null;
      }
      String origin = new String((byte[]) found.get(1), StandardCharsets.UTF_8);
      if (claims.checkOut(origin)) {
        return origin;
      } // else it came into line while checked out here (note 2)
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
    if (stopped || !leases.owns(shard)) {
      return null;
    }
    LocalClaims.HandedOut next = claims.handOut(origin, shard, leases::owns);
    if (next == null && claims.needsClaim(origin)) {
      claimAhead(origin, shard);
      next = claims.handOut(origin, shard, leases::owns);
    }
    return next == null ? null : new Claim<>(codec.decode(next.task(), 0, next.task().length), next.id());
  }

  /** Claims the origin's next tasks in Redis, to be handed out from here; no lock is held meanwhile (note 3). */
  private void claimAhead(String origin, int shard) {
    LocalClaims.Reservation reserved = claims.reserve(shard, CLAIM_AHEAD);
    List<byte[]> args = new ArrayList<>();
    args.add(RedisCrawl.bytes(Integer.toString(CLAIM_AHEAD)));
    args.add(RedisCrawl.bytes(origin));
    args.add(RedisCrawl.bytes(crawl.agentId()));
    for (String field : reserved.fields()) {
      args.add(RedisCrawl.bytes(field));
    }
    List<byte[]> tasks = List.of();
    try {
      tasks = crawl.eval(Scripts.CLAIM, ScriptOutputType.MULTI,
          new String[] {keys.list(origin), keys.flight(shard), keys.origins(shard), keys.lease(shard)},
          args.toArray(byte[][]::new));
    } finally {
      List<LocalClaims.Claimed> unwanted = claims.claimed(origin, reserved, tasks);
      if (!unwanted.isEmpty()) {
        unclaim(origin, shard, unwanted); // the origin was given back meanwhile
      }
    }
  }

  /**
   * Puts what was claimed ahead for the origin back at the head of its list, and the origin in line if it holds
   * tasks. Done even when the shard's lease has lapsed here, or the shard is another agent's now: a claim its new
   * owner has taken over is no longer in the flight hash, and is skipped.
   */
  @Override
  public void releaseQueue(String origin) {
    List<LocalClaims.Claimed> ahead = claims.release(origin);
    unclaim(origin, shardOf(origin), ahead);
    linesEmpty = false; // it may be in line again
  }

  /** Puts the claimed tasks back at the head of the origin's list, and the origin in line if it holds tasks. */
  private void unclaim(String origin, int shard, List<LocalClaims.Claimed> claimed) {
    List<byte[]> args = new ArrayList<>();
    args.add(RedisCrawl.bytes(origin));
    for (LocalClaims.Claimed c : claimed) {
      args.add(RedisCrawl.bytes(c.field()));
      args.add(c.task());
    }
    crawl.eval(Scripts.UNCLAIM, ScriptOutputType.INTEGER,
        new String[] {keys.list(origin), keys.flight(shard), keys.line(shard), keys.origins(shard)},
        args.toArray(byte[][]::new));
  }

  /**
   * Whether the shard can be handed back: nothing of it is handed out or on its way here. Tasks claimed ahead for its
   * origins go back to their lists first; the origins stay checked out here until released, but yield nothing more.
   */
  private boolean idleShard(int shard) {
    Map<String, List<LocalClaims.Claimed>> ahead = claims.drainIfIdle(shard);
    if (ahead == null) {
      return false;
    }
    ahead.forEach((origin, claimed) -> unclaim(origin, shard, claimed));
    return true;
  }

  @Override
  public void complete(Claim<T> claim) {
    LocalClaims.HandedOut done = claims.done(claim.id(), true);
    try {
      crawl.eval(Scripts.ACK, ScriptOutputType.INTEGER, new String[] {keys.flight(done.shard()),
          crawl.key("counters")}, RedisCrawl.bytes(done.field()), RedisCrawl.bytes(openField(done.shard())));
    } finally {
      claims.arrived(done);
    }
  }

  @Override
  public boolean isShared() {
    return true;
  }

  /**
   * Puts the task back at the head of its origin's list, for whoever owns its shard to hand out again; if Redis
   * cannot be reached, it stays in the flight hash, for the next owner of the shard.
   */
  @Override
  public void abandon(Claim<T> claim) {
    LocalClaims.HandedOut out = claims.done(claim.id(), true);
    try {
      String origin = queueKey.apply(codec.decode(out.task(), 0, out.task().length));
      unclaim(origin, out.shard(), List.of(new LocalClaims.Claimed(out.field(), out.task())));
    } catch (FrontierFailure e) {
      // Redis is away: the claim stays in flight, and whoever owns the shard next hands it out again
    } finally {
      claims.arrived(out);
    }
  }

  @Override
  public boolean owns(Claim<T> claim) {
    LocalClaims.HandedOut out = claims.get(claim.id());
    return out != null && leases.owns(out.shard());
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
    int local = claims.handedOutCount();
    int origins = claims.checkedOutCount();
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
    try {
      for (Map.Entry<String, List<LocalClaims.Claimed>> e : claims.releaseAll().entrySet()) {
        int shard = shardOf(e.getKey());
        if (leases.owns(shard)) {
          unclaim(e.getKey(), shard, e.getValue());
        }
      }
    } catch (FrontierFailure e) {
      // Redis is gone: the claims stay in the flight hashes, and the next owner of their shards does them
    }
    leases.close();
  }
}

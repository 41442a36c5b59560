package io.sievecrawl.sieve.redis;

import io.lettuce.core.KeyValue;
import io.lettuce.core.ScriptOutputType;
import io.sievecrawl.sieve.BloomSizing;
import io.sievecrawl.sieve.CapacityMonitor;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.SieveStats;
import io.sievecrawl.sieve.TaskCodec;
import io.sievecrawl.sieve.QueueKeys;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
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
 *
 * <p>The parts: {@link RedisAdmission} admits offers; {@link ShardWork} checks origins out, claims, acknowledges and
 * puts back; {@link ShardLeases} keeps this agent's share of the shards with a heartbeat, and {@link FlightRecovery}
 * puts back what a shard's flight hash holds that nobody holds. This class wires them together, and answers whether
 * the crawl is finished and how its counters stand.
 */
public final class RedisFrontier<T> implements Frontier<T> {
  /*
   * Design notes.
   *
   * 1. What this agent holds (checked-out origins, claimed tasks, claims on their way) is in LocalClaims, whose lock
   *    is held for memory only: no call to Redis is made under a lock here, so workers offer, claim, check out and
   *    acknowledge side by side (ShardWork's notes say how origins are checked out and claimed).
   * 2. Whether the crawl is finished is checked by EndCheck: rate-limited, by one worker at a time, less often while
   *    this agent has nothing to do.
   * 3. While Redis is unreachable, every call here waits in RedisCrawl.call (workers with it) for up to the outage
   *    grace; a call whose reply was lost is sent again, which Scripts shows to be safe for each script.
   * 4. A shard is used only while its lease holds by this agent's own clock (ShardLeases), and what its flight hash
   *    holds that nobody holds is put back whenever that may have happened (FlightRecovery).
   */
  private final RedisCrawl crawl;
  private final TaskCodec<T> codec;
  private final BloomSizing sizing;
  private final boolean confirmed;
  private final LocalClaims claims;
  private final FlightRecovery recovery;
  private final ShardLeases leases;
  private final RedisAdmission<T> admission;
  private final ShardWork work;
  private final CapacityMonitor capacity;
  private volatile long bits; // of the whole filter, on one Redis
  private final PartEstimates parts; // of each part of the filter, when spread (as last seen here); else null
  private final EndCheck endCheck;
  private volatile SieveStats lastStats; // as last read, while Redis is away

  private RedisFrontier(RedisCrawl crawl, TaskCodec<T> codec, Function<? super T, ? extends CharSequence> url,
      Function<? super T, String> queueKey, Duration leaseTtl, String capacityKey) {
    this.crawl = crawl;
    this.codec = codec;
    this.sizing = crawl.sizing();
    this.confirmed = crawl.confirmed();
    this.claims = new LocalClaims(crawl.agentId(), this::shardOf);
    Function<byte[], String> originOf = task -> queueKey.apply(codec.decode(task, 0, task.length));
    this.recovery = new FlightRecovery(crawl, crawl.keys(), claims, originOf);
    this.leases = new ShardLeases(crawl, leaseTtl, new ShardLeases.Listener() {
      @Override
      public long recover(int shard) {
        long back = recovery.recover(shard);
        work.lineMayHoldOrigins(shard); // its origins are lined up
        return back;
      }

      @Override
      public boolean idle(int shard) {
        return work.idleShard(shard);
      }

      @Override
      public void lost(int shard) {
        claims.lost(shard);
      }
    });
    this.admission = new RedisAdmission<>(crawl, codec, url, queueKey, this::shardOf);
    this.work = new ShardWork(crawl, claims, leases, originOf, this::shardOf);
    this.endCheck = new EndCheck(crawl, work, claims);
    this.parts = crawl.layers() == null ? null : new PartEstimates(crawl.layers(), crawl.parts());
    this.capacity = parts == null
        ? new CapacityMonitor(sizing, () -> bits, this::firstToWarn, capacityKey, confirmed)
        : CapacityMonitor.ofGrowingParts(crawl.n(), crawl.p(), parts::total, this::firstToWarn, capacityKey,
            confirmed);
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
    return crawl.keys().shardOf(QueueKeys.origin(queue));
  }

  /** The shard of {@code origin} among {@code shards} ({@link CrawlKeys#shardOf(String, int)}). */
  static int shardOf(String origin, int shards) {
    return CrawlKeys.shardOf(origin, shards);
  }

  @Override
  public boolean offer(T task) {
    return offerAll(List.of(task)).get(0);
  }

  /** Admits the tasks a script at a time, {@link RedisAdmission#MAX_BATCH} at most each (a sitemap's 50,000 URLs). */
  @Override
  public BitSet offerAll(List<T> tasks) {
    BitSet admitted = new BitSet(tasks.size());
    for (int from = 0; from < tasks.size(); from += RedisAdmission.MAX_BATCH) {
      checkUsable();
      RedisAdmission.Batch batch = admission.admit(tasks.subList(from,
          Math.min(tasks.size(), from + RedisAdmission.MAX_BATCH)));
      batch.parts().forEach((part, state) -> {
        if (parts == null) {
          bits = state.newestBits();
          return;
        }
        parts.update(part, state.layers(), state.newestBits());
        if (state.grew()) { // this agent's batch grew it: the only one to say so
          PartLayers layers = crawl.layers();
          capacity.partGrew(part, crawl.parts(), state.layers(), layers.capacityOf(state.layers() - 1),
              layers.sizing(state.layers() - 1));
        }
      });
      work.linesMayHoldOrigins(batch.linedUp()); // an origin came into their lines
      if (!batch.admitted().isEmpty()) {
        endCheck.admitted();
        capacity.check();
      }
      for (int i = batch.admitted().nextSetBit(0); i >= 0; i = batch.admitted().nextSetBit(i + 1)) {
        admitted.set(from + i);
      }
    }
    return admitted;
  }

  /** Checks out the first origin in line among the shards this agent owns ({@link ShardWork#nextQueue}). */
  @Override
  public String nextQueue() {
    checkUsable();
    String origin = work.nextQueue();
    if (origin != null) {
      endCheck.checkedOut();
    }
    return origin;
  }

  @Override
  public Claim<T> poll(String origin) {
    checkUsable();
    LocalClaims.HandedOut next = work.poll(origin);
    return next == null ? null : new Claim<>(codec.decode(next.task(), 0, next.task().length), next.id());
  }

  /** Puts what was claimed ahead for the origin back, and the origin in line ({@link ShardWork#releaseQueue}). */
  @Override
  public void releaseQueue(String origin) {
    work.releaseQueue(origin);
  }

  @Override
  public void complete(Claim<T> claim) {
    work.complete(claim.id());
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
    work.abandon(claim.id());
  }

  @Override
  public boolean owns(Claim<T> claim) {
    return work.owns(claim.id());
  }

  /**
   * Whether nothing is open anywhere: every task admitted by any agent was acknowledged, as two passes over every
   * shard agree ({@link ShardCounts} note 1).
   */
  @Override
  public boolean isFinished() {
    if (work.stopped()) {
      return true;
    }
    return endCheck.finished();
  }

  @Override
  public void stop() {
    work.stop();
  }

  /**
   * The counters summed over the shards as Redis has them now, or as last read while Redis cannot answer (stats do
   * not wait for it). The filter's figures are of its parts taken together.
   */
  @Override
  public SieveStats stats() {
    List<ShardCounts.Shard> shards = ShardCounts.readNow(crawl);
    List<KeyValue<String, byte[]>> counters = crawl.parts() == 1 ? crawl.readNow(redis -> redis.hmget(
        crawl.key("counters"), ShardCounts.FIELDS)) : List.of();
    int local = claims.handedOutCount();
    int origins = claims.checkedOutCount();
    if (shards == null || counters == null) {
      SieveStats last = lastStats;
      return last != null ? last : SieveStats.of(0, 0, 0, local, origins, crawl.wholeSizing(), 0,
          capacity.warnings(), confirmed, 0);
    }
    ShardCounts.Totals totals = ShardCounts.sum(shards);
    long queued = Math.max(0, totals.open() - local);
    SieveStats stats = parts == null
        ? SieveStats.of(totals.admitted(), totals.dropped(), queued, local, origins, crawl.wholeSizing(),
            ShardCounts.of(counters).bits(), capacity.warnings(), confirmed, totals.rescued())
        : layeredStats(shards, totals, queued, local, origins);
    lastStats = stats;
    return stats;
  }

  /**
   * The stats of a spread crawl, whose parts have layers of different sizes: bits allocated, set and the URLs
   * estimated are summed over every part's layers; the false-positive rate is that of the part where a new URL meets
   * the highest (a URL is taken for seen if any layer of its part holds its bits).
   */
  private SieveStats layeredStats(List<ShardCounts.Shard> shards, ShardCounts.Totals totals, long queued, int local,
      int origins) {
    PartLayers layers = crawl.layers();
    long allocated = 0;
    long set = 0;
    double estimate = 0;
    double worstFpp = 0;
    double falsePositives = 0;
    for (ShardCounts.Shard shard : shards) {
      double stayNew = 1;
      long[] layerBits = shard.layerBits();
      for (int layer = 0; layer < Math.min(layerBits.length, layers.maxLayers()); layer++) {
        BloomSizing layerSizing = layers.sizing(layer);
        long bits = Math.min(layerBits[layer], layerSizing.bits() - 1);
        double inLayer = layerSizing.estimateElements(bits);
        allocated += layerSizing.bits();
        set += layerBits[layer];
        estimate += inLayer;
        stayNew *= 1 - layerSizing.fppAtSetBits(bits);
        if (!confirmed && bits > 0) {
          falsePositives += layerSizing.expectedFalsePositives(inLayer);
        }
      }
      worstFpp = Math.max(worstFpp, 1 - stayNew);
    }
    return new SieveStats(totals.admitted(), totals.dropped(), queued, local, origins, crawl.n(), crawl.p(),
        allocated, set, Math.round(estimate), worstFpp, capacity.warnings(),
        Math.min(totals.dropped(), falsePositives), confirmed, totals.rescued());
  }

  /** Agents working on the crawl now, this one included. */
  public int liveAgents() {
    return leases.liveAgents();
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
    work.putBackAll();
    leases.close();
  }
}

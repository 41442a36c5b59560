package io.sievecrawl.sieve.redis;

import io.lettuce.core.ScriptOutputType;
import io.sievecrawl.sieve.FrontierFailure;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shards this agent owns. A shard is leased to one agent at a time (a key holding the agent's id, with an
 * expiry); a heartbeat renews the leases, registers the agent among the live ones, and balances the work: each agent
 * aims at its share of the shards that hold tasks and its share of all shards (both divided by the live agents,
 * rounded up), takes free shards with work first, and hands back what it holds beyond its share once it has nothing
 * of it in flight. A crawl of a few busy origins among many shards is spread that way, not only its idle shards. An
 * agent that dies stops renewing: its leases expire and others take its shards. The heartbeat also notices when the
 * crawl's data vanished from Redis.
 *
 * <p>Leases expire during a Redis outage longer than they last. An agent then holds its shards again if nobody took
 * them since it did ({@link Scripts#RENEW}), so its claims in flight stay its own and no page is fetched twice; for
 * a while after an outage it neither takes free shards nor counts silent agents dead, as the others come back too.
 *
 * <p>Leases are fenced by their holder: an agent uses a shard only until its lease may have expired by the agent's
 * own monotonic clock, counted from before the renewal was sent ({@link #owns}), so an agent starved or paused past
 * its lease (a loaded machine, a long GC pause, SIGSTOP) stops before another can take the shard over.
 */
final class ShardLeases implements AutoCloseable {
  /** What the frontier does when ownership changes. */
  interface Listener {
    /**
     * The shard is ours, and what its flight hash holds may be held by nobody (just taken, held again after a lapse,
     * Redis back after an outage or with older data): put that back and line up the shard's origins. Returns the
     * tasks put back.
     */
    long recover(int shard);

    /** Whether nothing of the shard is in flight here, so its lease can be handed back. */
    boolean idle(int shard);

    /** The shard is another agent's now: forget what was claimed ahead for it here. */
    void lost(int shard);
  }

  private static final Logger log = LoggerFactory.getLogger(ShardLeases.class);

  /*
   * Design notes.
   *
   * 1. A lease renewed (or taken) by a command sent at t, by the agent's ticker, holds in Redis until at least t + ttl
   *    on Redis's clock, which Redis starts counting when the command arrives, after t. The agent uses the shard
   *    until t + ttl - margin only (validUntil), the margin a quarter of the lease time: it covers the two clocks'
   *    rates and a request sent just before the end, which the server has long answered when the next owner, which
   *    takes the shard only after it expires in Redis and its heartbeat sees it, sends its first. Renewals come every
   *    third of the lease time, so a heartbeat may be late by about five twelfths of it before the shard pauses here.
   * 2. A lease that lapsed here may still be this agent's in Redis: the next renewal holds it again, or finds it
   *    another's (and the shard is lost). Meanwhile nothing of it is handed out or sent, and what was claimed for it
   *    goes back to its lists (ShardWork: released origins and abandoned claims are put back), so nothing is
   *    stranded in flight under this agent's id whichever way it goes.
   */
  private final RedisCrawl crawl;
  private final CrawlKeys keys;
  private final int shards;
  private final long ttlMillis;
  private final long useNanos; // how long after a renewal is sent the shard is used (note 1)
  private final Listener listener;
  private final Set<Integer> owned = ConcurrentHashMap.newKeySet();
  private final Map<Integer, Long> validUntil = new ConcurrentHashMap<>(); // per owned shard, on the agent's ticker
  private final Set<Integer> releasing = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "shard-leases");
    t.setDaemon(true);
    return t;
  });
  private volatile FrontierFailure failure;
  private volatile int liveAgents = 1;
  private long linedUpAfter; // the outages after which the shards' origins were lined up again
  private long layoutSeen; // guarded by this: a cluster's layout when the shards were last recovered (RedisLink 6)
  private final LostWrites lost;
  private final Set<Integer> wentBack = ConcurrentHashMap.newKeySet(); // shards whose renewal found older data

  ShardLeases(RedisCrawl crawl, Duration ttl, Listener listener) {
    this.crawl = crawl;
    this.keys = crawl.keys();
    this.shards = crawl.shards();
    this.ttlMillis = ttl.toMillis();
    this.useNanos = ttl.toNanos() - ttl.toNanos() / 4;
    this.listener = listener;
    this.layoutSeen = crawl.clusterLayout();
    this.lost = new LostWrites(crawl.uri(), crawl.agentId());
  }

  /** Takes a first share of the shards now, then keeps beating every third of the lease time. */
  void start() {
    beat();
    long every = Math.max(100, ttlMillis / 3);
    heartbeat.scheduleWithFixedDelay(this::beatQuietly, every, every, TimeUnit.MILLISECONDS);
  }

  /**
   * Whether tasks of {@code shard} may be worked on here now: it is this agent's, not being handed back, and its lease
   * cannot have expired yet by this agent's clock (note 1).
   */
  boolean owns(int shard) {
    return !releasing.contains(shard) && holds(shard);
  }

  private boolean holds(int shard) {
    Long until = validUntil.get(shard);
    return until != null && crawl.ticker().nanos() - until < 0;
  }

  /** The shards to read new tasks from. */
  List<Integer> readable() {
    List<Integer> readable = new ArrayList<>();
    for (int s : owned) {
      if (owns(s)) {
        readable.add(s);
      }
    }
    return readable;
  }

  int liveAgents() {
    return liveAgents;
  }

  /** The first failure the heartbeat met (Redis gone, the crawl's data lost), or {@code null}. */
  FrontierFailure failure() {
    return failure;
  }

  private void beatQuietly() {
    try {
      beat();
    } catch (FrontierFailure e) {
      if (failure == null) {
        failure = e;
        log.error("{}", e.getMessage());
      }
    } catch (RuntimeException e) {
      log.warn("shard lease heartbeat failed: {}", e.toString());
    }
  }

  /**
   * One heartbeat: registers the agent, renews its leases and balances the shards. Each call rides out an outage:
   * reads, and writes whose second run changes nothing (Scripts for the leases').
   */
  synchronized void beat() {
    if (crawl.call(redis -> redis.exists(crawl.key("meta"))) == 0) {
      throw new FrontierFailure(crawl.lostMessage(),
          new SharedCrawlException(SharedCrawlException.Kind.LOST, crawl.lostMessage()));
    }
    renew(); // first, so that no other command holds a renewal up
    long now = crawl.call(RedisCrawl::redisMillis);
    boolean lostWrites = lost.heartbeatWentBack(crawl.call(redis -> redis.hget(crawl.key("agents"),
        crawl.agentId())));
    crawl.call(redis -> redis.hset(crawl.key("agents"), crawl.agentId(), RedisCrawl.bytes(Long.toString(now))));
    lost.beatWritten(now);
    // leases are renewed every third of their time: an outage shorter than that let none expire
    boolean settling = crawl.outages().recoveredWithin(TimeUnit.MILLISECONDS.toNanos(Math.max(ttlMillis, 5_000)),
        TimeUnit.MILLISECONDS.toNanos(ttlMillis / 3));
    int live = 0;
    for (Map.Entry<String, byte[]> agent : crawl.call(redis -> redis.hgetall(crawl.key("agents"))).entrySet()) {
      long seen = Long.parseLong(new String(agent.getValue(), StandardCharsets.US_ASCII));
      // live while its leases would be: a dead agent counted any longer keeps the others' shares small, and its
      // expired shards waited (three lease times, 30 s by default) before anyone took them
      if (now - seen < ttlMillis) {
        live++;
      } else if (!settling) {
        crawl.call(redis -> redis.hdel(crawl.key("agents"), agent.getKey()));
      }
    }
    liveAgents = Math.max(1, live);
    recoverAfterOutage(lostWrites);
    if (settling) {
      return; // the other agents are coming back too: their shards are theirs to hold again
    }
    Set<Integer> busy = busyShards();
    int target = (shards + liveAgents - 1) / liveAgents;
    int busyShare = (busy.size() + liveAgents - 1) / liveAgents;
    handBackExcess(target, busy, busyShare);
    takeFree(target, busy, busyShare);
  }

  /**
   * After an outage, when Redis lost writes, or when a Redis Cluster's layout changed (a failover may lose writes
   * while no command failed), recovers every shard this agent owns: origins a lost reply left out of line, and claims
   * in flight under this agent's id that it no longer holds (done, and acknowledged in writes Redis lost), which no
   * other agent takes back from a live one. When only some shards' data went back (a master of a cluster that holds
   * no crawl-wide key), recovers those.
   */
  private void recoverAfterOutage(boolean lostWrites) {
    long outages = crawl.outages().recoveries();
    long layout = crawl.clusterLayout();
    List<Integer> shardsBack = List.copyOf(wentBack);
    wentBack.clear();
    if (!shardsBack.isEmpty() && !lostWrites && outages == linedUpAfter && layout == layoutSeen) {
      lost.tellShardsWentBack(shardsBack);
      long back = 0;
      for (int shard : shardsBack) {
        back += owns(shard) ? listener.recover(shard) : 0;
      }
      if (back > 0) {
        log.info("put back {} tasks left in flight that this agent no longer holds (Redis lost writes of origin"
            + " shards {})", back, shardsBack);
      }
    }
    if (outages != linedUpAfter || lostWrites || layout != layoutSeen) {
      long back = 0;
      for (int shard : readable()) {
        back += listener.recover(shard);
      }
      String why = outages == linedUpAfter && !lostWrites ? "the Redis Cluster's layout changed"
          : lostWrites ? "Redis was away and lost writes" : "Redis was away";
      linedUpAfter = outages;
      layoutSeen = layout;
      if (back > 0) {
        log.info("put back {} tasks left in flight that this agent no longer holds ({})", back, why);
      }
    }
  }

  /**
   * Renews every lease this agent holds, all at once (one script per shard, sent together on the shared
   * connection): a heartbeat as short as a round trip leaves its leases least room to lapse.
   */
  private void renew() {
    List<Integer> mine = List.copyOf(owned);
    List<Future<Boolean>> answers = new ArrayList<>(mine.size());
    long renewal = lost.nextRenewal();
    try (ExecutorService renewing = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int shard : mine) {
        answers.add(renewing.submit(() -> renew(shard, renewal) && (holds(shard) || renew(shard, renewal))));
      }
    }
    for (int i = 0; i < mine.size(); i++) {
      if (!answer(answers.get(i))) {
        int shard = mine.get(i);
        owned.remove(shard);
        releasing.remove(shard);
        validUntil.remove(shard);
        lost.forget(shard);
        listener.lost(shard);
        log.warn("lost the lease of shard {} (this agent was too slow to renew it); another agent does its work", shard);
      }
    }
  }

  private static boolean answer(Future<Boolean> renewal) {
    try {
      return renewal.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure; // a FrontierFailure, say: as if the renewal had run here
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FrontierFailure("interrupted while renewing the shard leases", new SharedCrawlException(
          SharedCrawlException.Kind.UNREACHABLE, "interrupted while renewing the shard leases"));
    }
  }

  /**
   * Renews the lease of {@code shard} (too late for its use here: once more), and counts its use here from before
   * the command was sent (note 1); on a spread crawl notes a shard whose renewal stamp went back ({@link LostWrites}).
   */
  private boolean renew(int shard, long renewal) {
    long sent = crawl.ticker().nanos();
    List<Object> renewed = crawl.eval(Scripts.RENEW, ScriptOutputType.MULTI,
        new String[] {keys.lease(shard), keys.shard(shard)}, RedisCrawl.bytes(crawl.agentId()),
        RedisCrawl.bytes(Long.toString(ttlMillis)), RedisCrawl.bytes(lost.stamp(renewal)));
    if ((Long) renewed.get(0) == 0) {
      return false;
    }
    validUntil.put(shard, sent + useNanos);
    String before = new String((byte[]) renewed.get(1), StandardCharsets.UTF_8);
    // on one Redis the agents hash, in the same Redis, tells of any loss (LostWrites)
    if (lost.shardWentBack(shard, renewal, before) && keys.spread()) {
      wentBack.add(shard);
    }
    return true;
  }

  /** The shards that hold tasks (waiting or claimed), from their hashes read at once (a hash gone: data lost). */
  private Set<Integer> busyShards() {
    List<ShardCounts.Shard> counts = ShardCounts.read(crawl);
    Set<Integer> busy = new java.util.HashSet<>();
    for (int s = 0; s < shards; s++) {
      if (counts.get(s).open() > 0) {
        busy.add(s);
      }
    }
    return busy;
  }

  private void handBackExcess(int target, Set<Integer> busy, int busyShare) {
    List<Integer> kept = new ArrayList<>(owned);
    kept.removeAll(releasing);
    Collections.shuffle(kept);
    long keptBusy = kept.stream().filter(busy::contains).count();
    for (int shard : kept) { // busy shards beyond this agent's share go first, so that others get work
      if (keptBusy > busyShare && busy.contains(shard) && releasing.add(shard)) {
        keptBusy--;
      }
    }
    int excess = owned.size() - releasing.size() - target;
    for (int shard : kept) {
      if (excess <= 0) {
        break;
      }
      if (!busy.contains(shard) && releasing.add(shard)) {
        excess--;
      }
    }
    for (int shard : List.copyOf(releasing)) {
      if (listener.idle(shard)) {
        release(shard);
        if (busy.contains(shard)) {
          log.info("handed shard {} back for another agent ({} live agents)", shard, liveAgents);
        }
      }
    }
  }

  private void takeFree(int target, Set<Integer> busy, int busyShare) {
    long ownedBusy = owned.stream().filter(s -> busy.contains(s) && !releasing.contains(s)).count();
    List<Integer> candidates = new ArrayList<>();
    for (int s = 0; s < shards; s++) {
      if (!owned.contains(s)) {
        candidates.add(s);
      }
    }
    Collections.shuffle(candidates);
    candidates.sort((a, b) -> Boolean.compare(busy.contains(b), busy.contains(a))); // shards with work first
    for (int shard : candidates) {
      boolean hasWork = busy.contains(shard);
      if (hasWork ? ownedBusy >= busyShare : owned.size() - releasing.size() >= target) {
        continue;
      }
      long sent = crawl.ticker().nanos();
      Long taken = crawl.eval(Scripts.TAKE, ScriptOutputType.INTEGER,
          new String[] {keys.lease(shard), keys.shard(shard)}, RedisCrawl.bytes(crawl.agentId()),
          RedisCrawl.bytes(Long.toString(ttlMillis)));
      if (taken == 1) {
        validUntil.put(shard, sent + useNanos);
        owned.add(shard);
        listener.recover(shard); // what its previous owner left unacknowledged
        if (hasWork) {
          ownedBusy++;
          log.info("took shard {}, which holds work ({} live agents, a share of {} busy shards each)", shard,
              liveAgents, busyShare);
        }
      }
    }
  }

  private void release(int shard) {
    validUntil.remove(shard); // before the lease goes: nothing of it is used from here on
    lost.forget(shard);
    crawl.eval(Scripts.RELEASE, ScriptOutputType.INTEGER, new String[] {keys.lease(shard)},
        RedisCrawl.bytes(crawl.agentId()));
    owned.remove(shard);
    releasing.remove(shard);
  }

  /** Hands every lease back and leaves the live agents, so that others take over at once. */
  @Override
  public synchronized void close() {
    heartbeat.shutdownNow();
    try {
      for (int shard : List.copyOf(owned)) {
        release(shard);
      }
      crawl.call(redis -> redis.hdel(crawl.key("agents"), crawl.agentId()));
    } catch (RuntimeException e) {
      log.warn("could not hand the shard leases back ({}); they expire in {} ms", e.getMessage(), ttlMillis);
    }
  }
}

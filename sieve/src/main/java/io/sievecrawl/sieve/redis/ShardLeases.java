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
import java.util.concurrent.Executors;
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
 */
final class ShardLeases implements AutoCloseable {
  /** What the frontier does when ownership changes. */
  interface Listener {
    /** The shard is ours now: claim what its previous owner left unacknowledged. */
    void acquired(int shard);

    /** Whether nothing of the shard is in flight here, so its lease can be handed back. */
    boolean idle(int shard);

    /** Redis is back after an outage: line up the shard's origins that a lost reply may have left out of line. */
    void afterOutage(int shard);
  }

  private static final Logger log = LoggerFactory.getLogger(ShardLeases.class);

  private final RedisCrawl crawl;
  private final int shards;
  private final long ttlMillis;
  private final Listener listener;
  private final Set<Integer> owned = ConcurrentHashMap.newKeySet();
  private final Set<Integer> releasing = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "shard-leases");
    t.setDaemon(true);
    return t;
  });
  private volatile FrontierFailure failure;
  private volatile int liveAgents = 1;
  private long linedUpAfter; // the outages after which the shards' origins were lined up again
  private long lastBeat; // guarded by this: the Redis time this agent last wrote as its heartbeat, 0 before the first

  ShardLeases(RedisCrawl crawl, Duration ttl, Listener listener) {
    this.crawl = crawl;
    this.shards = crawl.shards();
    this.ttlMillis = ttl.toMillis();
    this.listener = listener;
  }

  /** Takes a first share of the shards now, then keeps beating every third of the lease time. */
  void start() {
    beat();
    long every = Math.max(100, ttlMillis / 3);
    heartbeat.scheduleWithFixedDelay(this::beatQuietly, every, every, TimeUnit.MILLISECONDS);
  }

  /** Whether tasks of {@code shard} may be worked on here now. */
  boolean owns(int shard) {
    return owned.contains(shard) && !releasing.contains(shard);
  }

  /** The shards to read new tasks from. */
  List<Integer> readable() {
    List<Integer> readable = new ArrayList<>();
    for (int s : owned) {
      if (!releasing.contains(s)) {
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
   * Warns when Redis holds an older heartbeat of this agent than the last it wrote: Redis went back in time, restarted
   * from a snapshot or an append-only file older than the crawl's latest writes, and lost what the agents did since.
   * (An entry gone proves nothing: other agents remove one they think dead.)
   */
  private void checkNothingLost() {
    byte[] kept = crawl.call(redis -> redis.hget(crawl.key("agents"), crawl.agentId()));
    if (kept == null || lastBeat == 0) {
      return;
    }
    long keptBeat = Long.parseLong(new String(kept, StandardCharsets.US_ASCII));
    if (keptBeat < lastBeat) {
      log.warn("Redis at {} lost the shared crawl's writes of at least the last {} ms: it holds an older heartbeat of"
          + " this agent than the last one written, so it was restored from an older snapshot or append-only file;"
          + " pages done in that time may be fetched again",
          crawl.uri(), lastBeat - keptBeat);
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
    long now = crawl.call(RedisCrawl::redisMillis);
    checkNothingLost();
    crawl.call(redis -> redis.hset(crawl.key("agents"), crawl.agentId(), RedisCrawl.bytes(Long.toString(now))));
    lastBeat = now;
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
    renew();
    lineUpAfterOutage();
    if (settling) {
      return; // the other agents are coming back too: their shards are theirs to hold again
    }
    Set<Integer> busy = busyShards();
    int target = (shards + liveAgents - 1) / liveAgents;
    int busyShare = (busy.size() + liveAgents - 1) / liveAgents;
    handBackExcess(target, busy, busyShare);
    takeFree(target, busy, busyShare);
  }

  private void lineUpAfterOutage() {
    long outages = crawl.outages().recoveries();
    if (outages != linedUpAfter) {
      for (int shard : readable()) {
        listener.afterOutage(shard);
      }
      linedUpAfter = outages;
    }
  }

  private void renew() {
    for (int shard : List.copyOf(owned)) {
      Long renewed = crawl.eval(Scripts.RENEW, ScriptOutputType.INTEGER,
          new String[] {leaseKey(shard), crawl.key("owners")}, RedisCrawl.bytes(crawl.agentId()),
          RedisCrawl.bytes(Long.toString(ttlMillis)), RedisCrawl.bytes(Integer.toString(shard)));
      if (renewed == 0) {
        owned.remove(shard);
        releasing.remove(shard);
        log.warn("lost the lease of shard {} (this agent was too slow to renew it); another agent does its work", shard);
      }
    }
  }

  /** The shards that hold tasks (waiting or claimed), from their counters in one read. */
  private Set<Integer> busyShards() {
    Map<String, byte[]> counters = crawl.call(redis -> redis.hgetall(crawl.key("counters")));
    Set<Integer> busy = new java.util.HashSet<>();
    for (int s = 0; s < shards; s++) {
      byte[] open = counters.get(RedisFrontier.openField(s));
      if (open != null && Long.parseLong(new String(open, StandardCharsets.US_ASCII)) > 0) {
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
      Long taken = crawl.eval(Scripts.TAKE, ScriptOutputType.INTEGER,
          new String[] {leaseKey(shard), crawl.key("owners")}, RedisCrawl.bytes(crawl.agentId()),
          RedisCrawl.bytes(Long.toString(ttlMillis)), RedisCrawl.bytes(Integer.toString(shard)));
      if (taken == 1) {
        owned.add(shard);
        listener.acquired(shard);
        if (hasWork) {
          ownedBusy++;
          log.info("took shard {}, which holds work ({} live agents, a share of {} busy shards each)", shard,
              liveAgents, busyShare);
        }
      }
    }
  }

  private void release(int shard) {
    crawl.eval(Scripts.RELEASE, ScriptOutputType.INTEGER, new String[] {leaseKey(shard)},
        RedisCrawl.bytes(crawl.agentId()));
    owned.remove(shard);
    releasing.remove(shard);
  }

  String leaseKey(int shard) {
    return crawl.key("lease:" + shard);
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

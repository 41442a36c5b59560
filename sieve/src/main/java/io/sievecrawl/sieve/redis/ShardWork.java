package io.sievecrawl.sieve.redis;

import io.lettuce.core.ScriptOutputType;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.Ticker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;

/**
 * This agent's work on the shards it holds: checking origins out of the shards' lines, claiming their tasks a few at
 * a time, acknowledging tasks done and putting back what it will not do. What it holds meanwhile is in
 * {@link LocalClaims}; which shards are its own, {@link ShardLeases} says.
 */
final class ShardWork {
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
   * 3. No call to Redis is made under a lock here (LocalClaims's lock is held for memory only), so workers claim,
   *    check out and acknowledge side by side.
   * 4. A line found empty is asked again only after a pause that grows while it stays empty (LinePauses), unless an
   *    origin may have come into it meanwhile: this agent lined one up there, released one of its origins or took the
   *    shard over, or its end check read that the shard holds open tasks (sawCounts). One worker asks after a pause,
   *    so an agent with nothing to do costs a round trip per line per pause, not one per worker.
   * 5. In a crawl spread over a cluster each shard's line is asked by a script of its own (its keys are of its slot),
   *    in turn from a rotating start until one yields an origin, paused each on its own, so that a few busy shards
   *    among many idle ones cost a round trip or two per origin checked out, not one per shard. On one Redis every
   *    owned shard is asked in one script, paused as one.
   */
  private static final int CLAIM_AHEAD = 8;

  private final RedisCrawl crawl;
  private final Ticker ticker; // the agent's: the pauses between empty reads
  private final CrawlKeys keys;
  private final LocalClaims claims;
  private final ShardLeases leases;
  private final Function<byte[], String> originOf;
  private final ToIntFunction<String> shardOf;
  private final AtomicInteger nextLine = new AtomicInteger();
  private final LinePauses pauses = new LinePauses(); // by group of shards (note 4)
  private volatile boolean stopped;

  /**
   * @param originOf the origin of an encoded task
   * @param shardOf the shard of an origin
   */
  ShardWork(RedisCrawl crawl, LocalClaims claims, ShardLeases leases, Function<byte[], String> originOf,
      ToIntFunction<String> shardOf) {
    this.crawl = crawl;
    this.ticker = crawl.ticker();
    this.keys = crawl.keys();
    this.claims = claims;
    this.leases = leases;
    this.originOf = originOf;
    this.shardOf = shardOf;
  }

  /** Origins may have come into the shard's line: it is asked again at once (note 4). */
  void lineMayHoldOrigins(int shard) {
    pauses.mayHold(keys.group(shard));
  }

  /** As {@link #lineMayHoldOrigins} for the shards set in {@code shards}. */
  void linesMayHoldOrigins(BitSet shards) {
    if (!keys.spread()) { // one group
      if (!shards.isEmpty()) {
        lineMayHoldOrigins(0);
      }
      return;
    }
    for (int s = shards.nextSetBit(0); s >= 0; s = shards.nextSetBit(s + 1)) {
      lineMayHoldOrigins(s);
    }
  }

  /**
   * The shards' counts as this agent's end check read them: a shard of this agent's holding open tasks may have an
   * origin in line that another agent lined up, and is asked at once (note 4). Returns whether any did.
   */
  boolean sawCounts(List<ShardCounts.Shard> counts) {
    boolean any = false;
    for (int s = 0; s < counts.size(); s++) {
      if (counts.get(s).open() > 0 && leases.owns(s)) {
        lineMayHoldOrigins(s);
        any = true;
      }
    }
    return any;
  }

  /** Hands out nothing more: {@link #nextQueue} and {@link #poll} answer {@code null}. */
  void stop() {
    stopped = true;
  }

  boolean stopped() {
    return stopped;
  }

  /**
   * Checks out the first origin in line among the shards this agent owns, shards taking turns; {@code null} when none
   * is in line (a line found empty is asked again only after a pause, note 4).
   */
  String nextQueue() {
    while (!stopped) {
      long now = ticker.nanos();
      List<List<Integer>> groups = keys.groups(leases.readable());
      String origin = null;
      int start = Math.floorMod(nextLine.getAndIncrement(), Math.max(1, groups.size()));
      for (int i = 0; i < groups.size() && origin == null; i++) {
        origin = ask(groups.get((start + i) % groups.size()), now);
      }
      if (origin == null) {
        return null;
      }
      if (claims.checkOut(origin)) {
        return origin;
      } // else it came into line while checked out here (note 2)
    }
    return null;
  }

  /** The first origin in the group's line, checked out in one script; {@code null} if none, or if it is paused. */
  private String ask(List<Integer> shards, long now) {
    int group = keys.group(shards.get(0));
    long ticket = pauses.ask(group, now);
    if (ticket < 0) {
      return null;
    }
    String origin;
    try {
      origin = nextQueue(shards);
    } catch (RuntimeException e) {
      pauses.failed(group);
      throw e;
    }
    if (origin == null) {
      pauses.empty(group, ticket, now);
    } else {
      pauses.found(group);
    }
    return origin;
  }

  /** The first origin in line among {@code shards}, of one hash tag, checked out in one script; or {@code null}. */
  private String nextQueue(List<Integer> shards) {
    String[] lineKeys = Stream.concat(shards.stream().map(keys::line), shards.stream().map(keys::lease))
        .toArray(String[]::new);
    List<Object> found = crawl.eval(Scripts.NEXT_QUEUE, ScriptOutputType.MULTI, lineKeys,
        RedisCrawl.bytes(Integer.toString(Math.floorMod(nextLine.getAndIncrement(), shards.size()))),
        RedisCrawl.bytes(crawl.agentId()));
    if (found == null || found.size() < 2) { // nil, which Lettuce reads as a list of one null
      return null;
    }
    return new String((byte[]) found.get(1), StandardCharsets.UTF_8);
  }

  /** The origin's next task handed out to a worker, claimed in Redis first when none waits here; or {@code null}. */
  LocalClaims.HandedOut poll(String origin) {
    int shard = shardOf.applyAsInt(origin);
    if (stopped || !leases.owns(shard)) {
      return null;
    }
    LocalClaims.HandedOut next = claims.handOut(origin, shard, leases::owns);
    if (next == null && claims.needsClaim(origin)) {
      claimAhead(origin, shard);
      next = claims.handOut(origin, shard, leases::owns);
    }
    return next;
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
          new String[] {keys.list(shard, origin), keys.flight(shard), keys.origins(shard), keys.lease(shard)},
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
  void releaseQueue(String origin) {
    List<LocalClaims.Claimed> ahead = claims.release(origin);
    int shard = shardOf.applyAsInt(origin);
    unclaim(origin, shard, ahead);
    lineMayHoldOrigins(shard); // it may be in line again
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
        new String[] {keys.list(shard, origin), keys.flight(shard), keys.line(shard), keys.origins(shard)},
        args.toArray(byte[][]::new));
  }

  /**
   * Whether the shard can be handed back: nothing of it is handed out or on its way here. Tasks claimed ahead for its
   * origins go back to their lists first; the origins stay checked out here until released, but yield nothing more.
   */
  boolean idleShard(int shard) {
    Map<String, List<LocalClaims.Claimed>> ahead = claims.drainIfIdle(shard);
    if (ahead == null) {
      return false;
    }
    ahead.forEach((origin, claimed) -> unclaim(origin, shard, claimed));
    return true;
  }

  /** The claim {@code id} is done: acknowledged in its shard's flight hash, and no longer open. */
  void complete(long id) {
    LocalClaims.HandedOut done = claims.done(id, true);
    try {
      crawl.eval(Scripts.ACK, ScriptOutputType.INTEGER, new String[] {keys.flight(done.shard()),
          keys.shard(done.shard())}, RedisCrawl.bytes(done.field()));
    } finally {
      claims.arrived(done);
    }
  }

  /**
   * Puts the task back at the head of its origin's list, for whoever owns its shard to hand out again; if Redis
   * cannot be reached, it stays in the flight hash, for the next owner of the shard.
   */
  void abandon(long id) {
    LocalClaims.HandedOut out = claims.done(id, true);
    try {
      unclaim(originOf.apply(out.task()), out.shard(), List.of(new LocalClaims.Claimed(out.field(), out.task())));
    } catch (FrontierFailure e) {
      // Redis is away: the claim stays in flight, and whoever owns the shard next hands it out again
    } finally {
      claims.arrived(out);
    }
  }

  /** Whether the claim {@code id} is handed out here and its shard still this agent's. */
  boolean owns(long id) {
    LocalClaims.HandedOut out = claims.get(id);
    return out != null && leases.owns(out.shard());
  }

  /**
   * Puts the tasks claimed ahead back in their lists, for the shards this agent still owns; the claims in flight stay
   * in the flight hashes, and so does everything while Redis is gone, for the shards' next owners.
   */
  void putBackAll() {
    try {
      for (Map.Entry<String, List<LocalClaims.Claimed>> e : claims.releaseAll().entrySet()) {
        int shard = shardOf.applyAsInt(e.getKey());
        if (leases.owns(shard)) {
          unclaim(e.getKey(), shard, e.getValue());
        }
      }
    } catch (FrontierFailure e) {
      // Redis is gone: the claims stay in the flight hashes, and the next owner of their shards does them
    }
  }
}

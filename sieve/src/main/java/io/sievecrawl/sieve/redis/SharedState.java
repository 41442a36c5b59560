package io.sievecrawl.sieve.redis;

import io.lettuce.core.ScriptOutputType;
import io.sievecrawl.sieve.CountMinSketch;
import io.sievecrawl.sieve.PerKeyBudget;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the agents of a crawl share besides the frontier: the sites in scope, per-origin page budgets (a count-min
 * sketch of u32 counters in one string, updated by a script), and the crawl's counters summed over agents. Each call
 * rides out a Redis outage ({@link RedisCrawl#call}): reads and adding a site to a set are safe to send twice.
 */
public final class SharedState implements PerKeyBudget {
  private final RedisCrawl crawl;

  public SharedState(RedisCrawl crawl) {
    this.crawl = crawl;
  }

  /**
   * The sites in scope that every agent has published, from the {@code from}th on (0 for all), in the order they were
   * published: an agent reads only those it has not read yet.
   */
  public List<String> scopeSitesFrom(long from) {
    List<String> sites = new ArrayList<>();
    for (byte[] site : crawl.call(redis -> redis.lrange(crawl.key("scope-log"), from, -1))) {
      sites.add(new String(site, StandardCharsets.UTF_8));
    }
    return sites;
  }

  /** Adds {@code site} to the sites in scope. */
  public void publishScopeSite(String site) {
    publishScopeSites(List.of(site));
  }

  /** Adds {@code sites} to the sites in scope in one script (safe to send twice: see {@link Scripts#PUBLISH_SITES}). */
  public void publishScopeSites(java.util.Collection<String> sites) {
    if (!sites.isEmpty()) {
      byte[][] members = sites.stream().map(RedisCrawl::bytes).toArray(byte[][]::new);
      crawl.eval(Scripts.PUBLISH_SITES, ScriptOutputType.INTEGER,
          new String[] {crawl.key("scope"), crawl.key("scope-log")}, members);
    }
  }

  @Override
  public boolean tryCount(CharSequence origin, long limit) {
    // a sketch per shard when spread, each as wide as its share: the same error bound as one sketch for all
    String key = crawl.keys().budget(crawl.keys().shardOf(origin.toString()));
    int width = Math.max(1, CountMinSketch.DEFAULT_WIDTH / crawl.parts());
    int[] positions = CountMinSketch.positions(origin, width, CountMinSketch.DEFAULT_DEPTH);
    List<byte[]> args = new ArrayList<>();
    args.add(RedisCrawl.bytes(Long.toString(limit)));
    for (int p : positions) {
      args.add(RedisCrawl.bytes(Integer.toString(p)));
    }
    Long counted = crawl.eval(Scripts.TAKE_BUDGET, ScriptOutputType.INTEGER, new String[] {key},
        args.toArray(byte[][]::new));
    return counted == 1;
  }

  /** Adds {@code deltas} to the crawl's counters, in one round trip. */
  public void addCounters(Map<String, Long> deltas) {
    if (deltas.isEmpty()) {
      return;
    }
    List<byte[]> args = new ArrayList<>();
    deltas.forEach((field, delta) -> {
      args.add(RedisCrawl.bytes(field));
      args.add(RedisCrawl.bytes(Long.toString(delta)));
    });
    crawl.eval(Scripts.ADD_COUNTERS, ScriptOutputType.INTEGER, new String[] {crawl.key("stats")},
        args.toArray(byte[][]::new));
  }

  /** The crawl's counters summed over every agent, by name. */
  public Map<String, Long> counters() {
    Map<String, Long> counters = new TreeMap<>();
    for (Map.Entry<String, byte[]> e : crawl.call(redis -> redis.hgetall(crawl.key("stats"))).entrySet()) {
      counters.put(e.getKey(), Long.parseLong(new String(e.getValue(), StandardCharsets.US_ASCII)));
    }
    return counters;
  }

  /**
   * Agents other than this one working on the crawl now: those whose heartbeat is younger than {@code leaseTtl} by
   * Redis's clock. An agent leaves the crawl's agents when it ends, after sending its last counts; one that died stays
   * until its heartbeat is that old.
   */
  public int otherAgentsLive(java.time.Duration leaseTtl) {
    long now = crawl.call(RedisCrawl::redisMillis);
    int live = 0;
    for (Map.Entry<String, byte[]> agent : crawl.call(redis -> redis.hgetall(crawl.key("agents"))).entrySet()) {
      long seen = Long.parseLong(new String(agent.getValue(), StandardCharsets.US_ASCII));
      if (!agent.getKey().equals(crawl.agentId()) && now - seen < leaseTtl.toMillis()) {
        live++;
      }
    }
    return live;
  }

  /** The frontier's counters summed over its shards: set bits, admitted, dropped, open, rescued. */
  public Map<String, Long> frontierCounters() {
    ShardCounts.Totals totals = ShardCounts.sum(ShardCounts.read(crawl));
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("bits", crawl.spread() ? totals.bits()
        : ShardCounts.of(crawl.call(redis -> redis.hmget(crawl.key("counters"), ShardCounts.FIELDS))).bits());
    counters.put("admitted", totals.admitted());
    counters.put("dropped", totals.dropped());
    counters.put("open", totals.open());
    counters.put("rescued", totals.rescued());
    return counters;
  }
}

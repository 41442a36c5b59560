package io.sievecrawl.sieve.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.sievecrawl.sieve.CountMinSketch;
import io.sievecrawl.sieve.PerKeyBudget;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the agents of a crawl share besides the frontier: the sites in scope, per-origin page budgets (a count-min
 * sketch of u32 counters in one string, updated by a script), and the crawl's counters summed over agents.
 */
public final class SharedState implements PerKeyBudget {
  private final RedisCrawl crawl;

  public SharedState(RedisCrawl crawl) {
    this.crawl = crawl;
  }

  /** The sites in scope, as published by every agent. */
  public Set<String> scopeSites() {
    try {
      Set<String> sites = new java.util.TreeSet<>();
      for (byte[] site : crawl.redis().smembers(crawl.key("scope"))) {
        sites.add(new String(site, StandardCharsets.UTF_8));
      }
      return sites;
    } catch (RedisException e) {
      throw crawl.asFailure(e);
    }
  }

  /** Adds {@code site} to the sites in scope. */
  public void publishScopeSite(String site) {
    try {
      crawl.redis().sadd(crawl.key("scope"), RedisCrawl.bytes(site));
    } catch (RedisException e) {
      throw crawl.asFailure(e);
    }
  }

  @Override
  public boolean tryCount(CharSequence origin, long limit) {
    int[] positions = CountMinSketch.positions(origin, CountMinSketch.DEFAULT_WIDTH, CountMinSketch.DEFAULT_DEPTH);
    List<byte[]> args = new ArrayList<>();
    args.add(RedisCrawl.bytes(Long.toString(limit)));
    for (int p : positions) {
      args.add(RedisCrawl.bytes(Integer.toString(p)));
    }
    Long counted = crawl.eval(Scripts.TAKE_BUDGET, ScriptOutputType.INTEGER, new String[] {crawl.key("budget")},
        args.toArray(byte[][]::new));
    return counted == 1;
  }

  /** Adds {@code deltas} to the crawl's counters, in one round trip. */
  public void addCounters(Map<String, Long> deltas) {
    if (deltas.isEmpty()) {
      return;
    }
    try {
      var async = crawl.connection().async();
      List<io.lettuce.core.RedisFuture<Long>> replies = new ArrayList<>();
      deltas.forEach((field, delta) -> replies.add(async.hincrby(crawl.key("stats"), field, delta)));
      for (var reply : replies) {
        reply.get();
      }
    } catch (RedisException e) {
      throw crawl.asFailure(e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw crawl.asFailure(new RedisException(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The crawl's counters summed over every agent, by name. */
  public Map<String, Long> counters() {
    try {
      Map<String, Long> counters = new TreeMap<>();
      for (Map.Entry<String, byte[]> e : crawl.redis().hgetall(crawl.key("stats")).entrySet()) {
        counters.put(e.getKey(), Long.parseLong(new String(e.getValue(), StandardCharsets.US_ASCII)));
      }
      return counters;
    } catch (RedisException e) {
      throw crawl.asFailure(e);
    }
  }

  /** The frontier's global counters: set bits, admitted, dropped, open. */
  public Map<String, Long> frontierCounters() {
    try {
      Map<String, Long> counters = new LinkedHashMap<>();
      for (Map.Entry<String, byte[]> e : crawl.redis().hgetall(crawl.key("counters")).entrySet()) {
        counters.put(e.getKey(), Long.parseLong(new String(e.getValue(), StandardCharsets.US_ASCII)));
      }
      return counters;
    } catch (RedisException e) {
      throw crawl.asFailure(e);
    }
  }
}

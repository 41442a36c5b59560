package io.sievecrawl.sieve.redis;

import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Puts back, at the head of their origins' lists, the tasks a shard's flight hash holds that no agent holds, and lines
 * up every origin of the shard that holds tasks. An agent does it for a shard it owns:
 *
 * <ul>
 *   <li>when it takes the shard: its previous owner's claims, acknowledged by nobody now;
 *   <li>when it holds the shard's lease again after it lapsed here: the claims it dropped meanwhile;
 *   <li>after Redis was away, or came back with older data (restored from an older snapshot): claims under this
 *       agent's own id that it no longer holds (done since, and acknowledged in writes Redis lost), which no agent
 *       would ever take back, since they are the claims of a live agent; and origins that a lost reply left out of
 *       line.
 * </ul>
 *
 * <p>What this agent still holds ({@link LocalClaims#held}) stays in flight. The script puts nothing back unless the
 * shard's lease is this agent's when it runs, so a shard lost meanwhile keeps its new owner's claims.
 */
final class FlightRecovery {
  /** Origins a script handles at most: a script blocks every other agent's commands while it runs. */
  private static final int BATCH = 500;

  private final RedisCrawl crawl;
  private final CrawlKeys keys;
  private final LocalClaims claims;
  private final Function<byte[], String> originOf;

  /** @param originOf the origin of an encoded task */
  FlightRecovery(RedisCrawl crawl, CrawlKeys keys, LocalClaims claims, Function<byte[], String> originOf) {
    this.crawl = crawl;
    this.keys = keys;
    this.claims = claims;
    this.originOf = originOf;
  }

  /** Recovers {@code shard} as the class notes say; returns the tasks put back. */
  long recover(int shard) {
    LocalClaims.Held held = claims.held(shard); // before the flight hash is read: see LocalClaims note 2
    Map<String, byte[]> flight = crawl.call(redis -> redis.hgetall(keys.flight(shard)));
    Map<String, List<LocalClaims.Claimed>> byOrigin = new LinkedHashMap<>();
    flight.entrySet().stream()
        .filter(e -> held.isStray(e.getKey(), crawl.agentId()))
        .sorted(Map.Entry.comparingByKey(FlightRecovery::compareFields))
        .forEach(e -> byOrigin.computeIfAbsent(originOf.apply(e.getValue()), o -> new ArrayList<>())
            .add(new LocalClaims.Claimed(e.getKey(), e.getValue())));
    for (byte[] origin : crawl.call(redis -> redis.smembers(keys.origins(shard)))) {
      byOrigin.putIfAbsent(new String(origin, StandardCharsets.UTF_8), List.of());
    }
    List<String> origins = new ArrayList<>(byOrigin.keySet());
    long back = 0;
    for (int from = 0; from < origins.size(); from += BATCH) {
      List<String> scriptKeys = new ArrayList<>(List.of(keys.flight(shard), keys.line(shard), keys.origins(shard),
          keys.lease(shard)));
      List<byte[]> args = new ArrayList<>();
      args.add(RedisCrawl.bytes(crawl.agentId()));
      for (String origin : origins.subList(from, Math.min(origins.size(), from + BATCH))) {
        List<LocalClaims.Claimed> its = byOrigin.get(origin);
        scriptKeys.add(keys.list(shard, origin));
        args.add(RedisCrawl.bytes(origin));
        args.add(RedisCrawl.bytes(Integer.toString(its.size())));
        for (LocalClaims.Claimed c : its) {
          args.add(RedisCrawl.bytes(c.field()));
          args.add(c.task());
        }
      }
      Long put = crawl.eval(Scripts.TAKE_OVER, ScriptOutputType.INTEGER, scriptKeys.toArray(String[]::new),
          args.toArray(byte[][]::new));
      if (put < 0) {
        return back; // the lease is another agent's now: its claims are its own
      }
      back += put;
    }
    return back;
  }

  /** Orders flight fields ({@code agent:counter}) by agent, then by counter: the order the tasks were claimed in. */
  static int compareFields(String a, String b) {
    int ca = a.lastIndexOf(':');
    int cb = b.lastIndexOf(':');
    if (ca < 0 || cb < 0) {
      return a.compareTo(b);
    }
    int byAgent = a.substring(0, ca).compareTo(b.substring(0, cb));
    if (byAgent != 0) {
      return byAgent;
    }
    try {
      return Long.compare(Long.parseLong(a.substring(ca + 1)), Long.parseLong(b.substring(cb + 1)));
    } catch (NumberFormatException e) {
      return a.compareTo(b);
    }
  }
}

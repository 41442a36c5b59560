package io.sievecrawl.sieve.redis;

import java.time.Duration;

/**
 * Values a shared crawl keeps per origin for a while, one key each ({@code sievecrawl:{TAG}:KIND:ORIGIN}, under its
 * origin's shard's tag, so that they spread over a cluster's masters with the shards) that
 * expires on its own: what one agent learned of an origin (its robots.txt rules, say) for the next agent that works
 * it. Each call rides out a Redis outage ({@link RedisCrawl#call}); a read and a write are safe to send twice.
 */
public final class KeptPerOrigin {
  private final RedisCrawl crawl;
  private final String kind;

  /** @param kind what the values are, in their keys' names (letters) */
  public KeptPerOrigin(RedisCrawl crawl, String kind) {
    this.crawl = crawl;
    this.kind = kind;
  }

  /** The value kept for {@code origin}, or {@code null} when none is (or it expired). */
  public byte[] get(String origin) {
    return crawl.call(redis -> redis.get(key(origin)));
  }

  /** Keeps {@code value} for {@code origin} for {@code ttl}, replacing what was kept. */
  public void put(String origin, byte[] value, Duration ttl) {
    if (ttl.isPositive()) {
      crawl.call(redis -> redis.psetex(key(origin), ttl.toMillis(), value));
    }
  }

  private String key(String origin) {
    return crawl.keys().perOrigin(kind, origin);
  }
}

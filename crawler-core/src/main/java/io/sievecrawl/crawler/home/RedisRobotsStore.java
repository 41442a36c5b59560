package io.sievecrawl.crawler.home;

import io.sievecrawl.crawler.robots.RobotsStore;
import io.sievecrawl.sieve.redis.KeptPerOrigin;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The robots.txt rules of a shared crawl, in Redis: an agent that takes an origin over from another uses the rules
 * that one fetched, until they expire. A value is the expiry (epoch milliseconds, 8 bytes) and the encoded rules; its
 * key expires with them.
 */
final class RedisRobotsStore implements RobotsStore {
  private final KeptPerOrigin kept;
  private final Clock clock;

  RedisRobotsStore(KeptPerOrigin kept, Clock clock) {
    this.kept = kept;
    this.clock = clock;
  }

  @Override
  public Kept load(String origin) {
    byte[] value = kept.get(origin);
    if (value == null || value.length < Long.BYTES) {
      return null;
    }
    ByteBuffer buffer = ByteBuffer.wrap(value);
    Instant expires = Instant.ofEpochMilli(buffer.getLong());
    byte[] rules = new byte[buffer.remaining()];
    buffer.get(rules);
    return new Kept(expires, rules);
  }

  @Override
  public void save(String origin, Kept rules) {
    byte[] value = ByteBuffer.allocate(Long.BYTES + rules.rules().length).putLong(rules.expires().toEpochMilli())
        .put(rules.rules()).array();
    kept.put(origin, value, Duration.between(clock.instant(), rules.expires()));
  }
}

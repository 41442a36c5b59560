package io.sievecrawl.sieve.redis;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

/** Deletes a crawl shared through Redis, every key of it, once no agent works it ({@code sievecrawl remove}). */
public final class SharedCrawlRemoval {
  private SharedCrawlRemoval() {}

  /**
   * Removes the crawl {@code name} (of any version of the format) and every key it has from Redis; returns how many
   * keys went. Refused while an agent has been heard from within {@code agentsQuietFor} of the crawl's settings text:
   * the crawl is still being worked. (An agent that ends signs off; a killed one is heard from no more.)
   *
   * @throws SharedCrawlException if Redis cannot be reached or refuses us, there is no such crawl, or agents work it
   */
  public static long remove(String rawUri, String name, Function<String, Duration> agentsQuietFor)
      throws SharedCrawlException {
    CrawlKeys.checkName(name);
    String uri = RedisAddress.shown(rawUri);
    RedisLink link = RedisAddress.connect(rawUri);
    try {
      // on a cluster, SCAN walks every master and UNLINK splits its keys by slot
      RedisClusterCommands<String, byte[]> redis = link.first().sync();
      // a crawl of an older build goes too
      Map<String, String> meta = CrawlMeta.read(redis, uri, name, false);
      Duration quiet = agentsQuietFor.apply(meta.getOrDefault("settings", ""));
      long now = RedisCrawl.redisMillis(redis);
      long live = redis.hgetall(CrawlKeys.key(name, "agents")).values().stream()
          .filter(seen -> now - Long.parseLong(new String(seen, StandardCharsets.US_ASCII)) < quiet.toMillis())
          .count();
      if (live > 0) {
        throw new SharedCrawlException(SharedCrawlException.Kind.IN_USE, "the shared crawl '" + name + "' in " + uri
            + " is being worked by " + live + (live == 1 ? " agent" : " agents") + " (heard from in the last "
            + quiet.toSeconds() + " s): stop them first (Ctrl-C), then remove it");
      }
      long removed = 0;
      // the meta hash last: a crawl removed part way is still found, and removed, by the next try
      for (String pattern : CrawlKeys.patterns(name).reversed()) {
        removed += unlinkMatching(redis, pattern, CrawlKeys.key(name, "meta"));
      }
      return removed + redis.unlink(CrawlKeys.key(name, "meta"));
    } catch (RedisException e) {
      throw RedisFailures.failure(uri, e);
    } finally {
      link.close();
    }
  }

  /** Unlinks every key matching {@code pattern} but {@code kept}; returns how many went. */
  private static long unlinkMatching(RedisClusterCommands<String, byte[]> redis, String pattern, String kept) {
    long removed = 0;
    ScanArgs match = ScanArgs.Builder.matches(pattern).limit(1_000);
    for (KeyScanCursor<String> cursor = redis.scan(match); ; cursor = redis.scan(cursor, match)) {
      String[] keys = cursor.getKeys().stream().filter(key -> !key.equals(kept)).toArray(String[]::new);
      if (keys.length > 0) {
        removed += redis.unlink(keys);
      }
      if (cursor.isFinished()) {
        return removed;
      }
    }
  }

  /** The command that removes the crawl {@code name}, for messages. */
  public static String command(String uri, String name) {
    return "sievecrawl remove --redis " + RedisAddress.shown(uri) + " --crawl-name " + name;
  }
}

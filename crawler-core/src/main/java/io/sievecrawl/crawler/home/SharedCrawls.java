package io.sievecrawl.crawler.home;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.redis.RedisCrawl;
import io.sievecrawl.sieve.redis.SharedCrawlException;
import io.sievecrawl.sieve.redis.SharedCrawlRemoval;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * Crawls shared through Redis, by URI and name: started or joined as a {@link SharedHome}, removed, and named in
 * messages. Failures come as a {@link SharedHomeException} saying what went wrong in one line.
 */
public final class SharedCrawls {
  private SharedCrawls() {}

  /**
   * Starts the shared crawl {@code name} with {@code settings}, or joins it if it exists with the same identity
   * ({@link CrawlIdentity#mismatch}: the same n and p, and filter.confirm where it is given).
   *
   * @param shards shards of a new crawl: its origins are spread over them and agents lease them
   * @throws SharedHomeException if Redis cannot be reached or refuses us, or the crawl exists with another identity
   *     ({@link SharedHomeException.Reason#MISMATCH}) or has finished
   */
  public static SharedHome startOrJoin(String uri, String name, CrawlSettings settings, int shards, Clock clock,
      Ticker ticker) throws SharedHomeException {
    SharedHome home;
    try {
      home = SharedHome.of(RedisCrawl.startOrJoin(uri, name, settings.filter().expectedUrls(),
          settings.filter().falsePositiveRate(), settings.filter().confirm(), shards, settings.toConfigText(),
          clock, ticker));
    } catch (SharedCrawlException e) {
      throw failed(e);
    }
    Optional<String> why = home.identity().mismatch(settings, CrawlIdentity.JOINS, "the shared crawl "
        + home.where(), false);
    if (why.isPresent()) {
      home.close();
      throw new SharedHomeException(SharedHomeException.Reason.MISMATCH, why.get() + "; join it with the same n and p"
          + " (or with 'sievecrawl join'), or choose another --crawl-name", null);
    }
    return home;
  }

  /**
   * Joins the shared crawl {@code name}, with the settings it was started with.
   *
   * @throws SharedHomeException if Redis cannot be reached or refuses us, or there is no such crawl
   *     ({@link SharedHomeException.Reason#NO_SUCH_CRAWL})
   */
  public static SharedHome join(String uri, String name, Ticker ticker) throws SharedHomeException {
    try {
      return SharedHome.of(RedisCrawl.join(uri, name, ticker));
    } catch (SharedCrawlException e) {
      throw failed(e);
    }
  }

  /**
   * Deletes every key of the shared crawl {@code name} once no agent works it, and returns how many went.
   *
   * @param agentsQuietFor how long an agent of a crawl with the given settings text may go unheard and still work it
   * @throws SharedHomeException if Redis cannot be reached, there is no such crawl, or agents still work it
   */
  public static long remove(String uri, String name, Function<String, Duration> agentsQuietFor)
      throws SharedHomeException {
    try {
      return SharedCrawlRemoval.remove(uri, name, agentsQuietFor);
    } catch (SharedCrawlException e) {
      throw failed(e);
    }
  }

  /** The command that removes the shared crawl {@code name}, for a hint. */
  public static String removalCommand(String uri, String name) {
    return SharedCrawlRemoval.command(uri, name);
  }

  /** {@code uri} as a message shows it: without a password. */
  public static String shown(String uri) {
    return RedisCrawl.shown(uri);
  }

  /**
   * What a Redis failure among {@code failure}'s causes means, in one line (from a call besides the frontier's: the
   * shared counters, the sites in scope), or null if none of its causes is one.
   */
  public static String redisFailure(String uri, Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof io.lettuce.core.RedisException redis) {
        return RedisCrawl.failure(uri, redis).getMessage();
      }
    }
    return null;
  }

  private static SharedHomeException failed(SharedCrawlException e) {
    SharedHomeException.Reason reason = switch (e.kind()) {
      case NO_SUCH_CRAWL -> SharedHomeException.Reason.NO_SUCH_CRAWL;
      case MISMATCH -> SharedHomeException.Reason.MISMATCH;
      default -> SharedHomeException.Reason.UNAVAILABLE;
    };
    return new SharedHomeException(reason, e.getMessage(), e);
  }
}

package io.sievecrawl.crawler.home;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.redis.RedisCrawl;
import io.sievecrawl.sieve.redis.RedisServer;
import java.time.Clock;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The {@link CrawlHomeContract} for a crawl shared through Redis (a real redis-server on a free loopback port):
 * reopened, it is another agent joining.
 */
class SharedHomeIT extends CrawlHomeContract {
  private RedisServer redis;
  private int crawls;

  @BeforeEach
  void startRedis() throws Exception {
    redis = RedisServer.start(null);
  }

  @AfterEach
  void stopRedis() {
    redis.close();
  }

  @Override
  CrawlHome create(CrawlSettings settings) throws Exception {
    return SharedHome.of(RedisCrawl.startOrJoin(redis.uri(), "crawl-" + crawls++,
        settings.filter().expectedUrls(), settings.filter().falsePositiveRate(), settings.filter().confirm(), 4,
        settings.toConfigText(), Clock.systemUTC(), Ticker.SYSTEM));
  }

  @Override
  CrawlHome reopen(CrawlHome closed) throws Exception {
    closed.close();
    return SharedHome.of(RedisCrawl.join(redis.uri(), ((SharedHome) closed).name(), Ticker.SYSTEM));
  }

  @Override
  boolean keepsTotals() {
    return false;
  }

  @Override
  boolean sharesScope() {
    return true;
  }

  @Override
  boolean resizable() {
    return false;
  }

  @Override
  Set<String> visitsKept(CrawlHome home) {
    return Set.of();
  }

  @Override
  boolean keepsVisits() {
    return false;
  }
}

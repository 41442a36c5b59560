package io.sievecrawl.crawler.home;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.redis.RedisCrawl;
import io.sievecrawl.sieve.redis.RedisServer;
import java.time.Clock;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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
    return SharedCrawls.startOrJoin(redis.uri(), "crawl-" + crawls++, settings, 4, Clock.systemUTC(),
        Ticker.SYSTEM);
  }

  /** Starting a crawl that exists joins it; its identity decides, by the one rule every home follows. */
  @Test
  void anAgentStartingAnExistingCrawlWithAnotherNOrPIsRefusedInOneLine() throws Exception {
    CrawlSettings settings = CrawlSettings.defaults();
    SharedCrawls.startOrJoin(redis.uri(), "sized", settings, 4, Clock.systemUTC(), Ticker.SYSTEM).close();
    CrawlSettings smaller = settings.toBuilder().set(Setting.FILTER_P, 0.01).build();
    SharedHomeException e = assertThrows(SharedHomeException.class, () -> SharedCrawls.startOrJoin(redis.uri(),
        "sized", smaller, 4, Clock.systemUTC(), Ticker.SYSTEM));
    assertEquals(SharedHomeException.Reason.MISMATCH, e.reason());
    assertEquals("filter.p cannot change when an agent joins: the shared crawl 'sized' in " + redis.uri()
        + " was sized for p = " + settings.filter().falsePositiveRate() + " (given set: 0.01); join it with the same"
        + " n and p (or with 'sievecrawl join'), or choose another --crawl-name",
        e.getMessage().replaceAll("given [^:]*:", "given set:"));
    try (SharedHome joined = SharedCrawls.startOrJoin(redis.uri(), "sized", settings, 4, Clock.systemUTC(),
        Ticker.SYSTEM)) {
      assertEquals(CrawlIdentity.of(settings), joined.identity(), "the same settings join");
    }
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

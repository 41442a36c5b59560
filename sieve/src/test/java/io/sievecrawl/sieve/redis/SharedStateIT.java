package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lettuce.core.ScriptOutputType;
import io.sievecrawl.sieve.testing.FakeClock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sites in scope the agents share: each published once, and read from where an agent left off. */
class SharedStateIT {
  private final FakeClock clock = new FakeClock();
  private RedisServer redis;
  private RedisCrawl crawl;
  private SharedState state;

  @BeforeEach
  void start() throws Exception {
    redis = RedisServer.start(null);
    crawl = RedisCrawl.startOrJoin(redis.uri(), "scope", 1_000, 0.001, 4, "", clock, clock);
    state = new SharedState(crawl);
  }

  @AfterEach
  void stop() throws Exception {
    crawl.close();
    redis.close();
  }

  @Test
  void anAgentReadsOnlyTheSitesPublishedSinceItsLastRead() {
    state.publishScopeSites(List.of("a.test", "b.test"));
    assertEquals(List.of("a.test", "b.test"), state.scopeSitesFrom(0));

    state.publishScopeSites(List.of("b.test", "c.test")); // b.test again: published already
    state.publishScopeSite("d.test:8080");
    assertEquals(List.of("c.test", "d.test:8080"), state.scopeSitesFrom(2));
    assertEquals(List.of(), state.scopeSitesFrom(4));
  }

  @Test
  void aPublicationSentTwiceAfterALostReplyAddsEachSiteOnce() {
    byte[][] sites = {RedisCrawl.bytes("a.test"), RedisCrawl.bytes("b.test")};
    String[] keys = {crawl.key("scope"), crawl.key("scope-log")};
    Long first = crawl.eval(Scripts.PUBLISH_SITES, ScriptOutputType.INTEGER, keys, sites);
    Long second = crawl.eval(Scripts.PUBLISH_SITES, ScriptOutputType.INTEGER, keys, sites);

    assertEquals(2, first);
    assertEquals(0, second);
    assertEquals(List.of("a.test", "b.test"), state.scopeSitesFrom(0));
  }
}

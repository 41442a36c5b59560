package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sievecrawl.sieve.Frontiers;
import io.sievecrawl.sieve.TaskCodec;
import io.sievecrawl.sieve.testing.FakeClock;
import io.lettuce.core.RedisClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** An agent tells when Redis went back in time: restored from a snapshot older than the crawl's latest writes. */
class RedisRestoredIT {
  private static final TaskCodec<String> UTF8 = Frontiers.STRINGS;

  private final FakeClock clock = new FakeClock();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger redisLog = (Logger) LoggerFactory.getLogger("io.sievecrawl.sieve.redis");
  private RedisServer redis;
  private RedisCrawl crawl;
  private RedisFrontier<String> frontier;

  @BeforeEach
  void start() throws Exception {
    logged.start();
    redisLog.addAppender(logged);
    redis = RedisServer.start(null);
    crawl = RedisCrawl.startOrJoin(redis.uri(), "restored", 1_000, 0.001, 4, "", clock, clock);
    frontier = RedisFrontier.openWithoutHeartbeat(crawl, UTF8, url -> url, url -> "o", Duration.ofMinutes(10), "n");
  }

  @AfterEach
  void stop() throws Exception {
    redisLog.detachAppender(logged);
    frontier.close();
    crawl.close();
    redis.close();
  }

  private List<String> warnings() {
    return logged.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  /** Puts this agent's heartbeat back by {@code millis}, as a restore from an older snapshot would. */
  private void restoreOlderBy(long millis) {
    try (RedisClient client = RedisClient.create(redis.uri()); var connection = client.connect()) {
      String key = crawl.key("agents");
      long kept = Long.parseLong(connection.sync().hget(key, crawl.agentId()));
      connection.sync().hset(key, crawl.agentId(), Long.toString(kept - millis));
    }
  }

  @Test
  void heartbeatsOfARedisThatKeptEverythingWarnOfNothing() {
    frontier.heartbeat();
    frontier.heartbeat();
    assertEquals(List.of(), warnings());
  }

  @Test
  void aRedisRestoredFromAnOlderSnapshotIsToldWithHowMuchItLost() {
    frontier.heartbeat();
    restoreOlderBy(60_000);
    frontier.heartbeat();

    assertEquals(1, warnings().size(), logged.list.toString());
    String warning = warnings().get(0);
    assertTrue(warning.contains("lost the shared crawl's writes of at least the last 60"), warning);
    assertTrue(warning.contains("older snapshot"), warning);
  }

  @Test
  void anEntryOtherAgentsRemovedProvesNothing() {
    frontier.heartbeat();
    try (RedisClient client = RedisClient.create(redis.uri()); var connection = client.connect()) {
      connection.sync().hdel(crawl.key("agents"), crawl.agentId()); // taken for dead during a long pause
    }
    frontier.heartbeat();
    assertEquals(List.of(), warnings());
  }
}

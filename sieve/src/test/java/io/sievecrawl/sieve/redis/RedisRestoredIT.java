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
import io.sievecrawl.sieve.Claim;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * An agent tells when Redis went back in time (restored from a snapshot older than the crawl's latest writes), and
 * puts back what Redis shows in its flight that it no longer holds, so that the crawl still ends.
 */
class RedisRestoredIT {
  private static final TaskCodec<String> UTF8 = Frontiers.STRINGS;

  private final FakeClock clock = new FakeClock();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger redisLog = (Logger) LoggerFactory.getLogger("io.sievecrawl.sieve.redis");
  @TempDir
  Path data;
  private RedisServer redis;
  private RedisCrawl crawl;
  private RedisFrontier<String> frontier;

  @BeforeEach
  void start() throws Exception {
    logged.start();
    redisLog.addAppender(logged);
    redis = RedisServer.startSnapshotting(data);
    crawl = RedisCrawl.startOrJoin(redis.uri(), "restored", 1_000, 0.001, 4, "", clock, clock);
    crawl.setOutageGrace(Duration.ofMinutes(1)); // on the test's clock, which stands still: the restart is waited out
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

  /**
   * The snapshot holds claims under this agent's id that it has acknowledged since: no other agent would take them
   * back from a live one, so it puts them back itself, and every task is done and the crawl finished.
   */
  @Test
  void claimsARestoredRedisHoldsInFlightThatTheAgentDoesNotAreDoneAgainAndTheCrawlEnds() throws Exception {
    List<String> tasks = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      tasks.add("https://o/" + i);
    }
    frontier.offerAll(tasks);
    frontier.seedsQueued();
    assertEquals("o", frontier.nextQueue());
    List<Claim<String>> done = List.of(frontier.poll("o"), frontier.poll("o"), frontier.poll("o"));
    frontier.heartbeat();
    redis.save(); // three tasks in flight, five more claimed ahead
    Path older = Files.copy(data.resolve("dump.rdb"), data.resolve("older.rdb"));
    done.forEach(frontier::complete);
    frontier.releaseQueue("o");
    clock.advance(Duration.ofSeconds(1));
    frontier.heartbeat(); // a heartbeat the snapshot does not hold
    redis.kill();
    Files.copy(older, data.resolve("dump.rdb"), StandardCopyOption.REPLACE_EXISTING);
    redis.startAgain();

    frontier.heartbeat();
    assertEquals(1, warnings().size(), warnings().toString());
    Set<String> handedOut = new HashSet<>();
    for (int turn = 0; !frontier.isFinished(); turn++) {
      assertTrue(turn < 50, "still open after " + turn + " turns: " + frontier.stats());
      for (String origin = frontier.nextQueue(); origin != null; origin = frontier.nextQueue()) {
        for (Claim<String> claim = frontier.poll(origin); claim != null; claim = frontier.poll(origin)) {
          handedOut.add(claim.task());
          frontier.complete(claim);
        }
        frontier.releaseQueue(origin);
      }
      clock.advance(Duration.ofSeconds(1)); // past the pauses after an empty read and between checks for the end
    }
    assertEquals(Set.copyOf(tasks), handedOut, "every task, the three done after the snapshot among them");
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

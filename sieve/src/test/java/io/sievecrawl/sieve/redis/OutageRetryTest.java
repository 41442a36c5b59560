package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisLoadingException;
import io.sievecrawl.sieve.testing.FakeClock;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The retry policy on a fake clock: pauses, the grace period, one WARN and one INFO an outage. */
class OutageRetryTest {
  private static final String URI = "redis://127.0.0.1:6379/0";
  private static final String HINT = "'sievecrawl join --redis " + URI + " --crawl-name c' continues the crawl once"
      + " it is back";

  private final FakeClock clock = new FakeClock();
  private final List<Long> pauses = new ArrayList<>();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(OutageRetry.class);

  @BeforeEach
  void captureLog() {
    logged.start();
    logger.addAppender(logged);
    logger.setLevel(Level.INFO);
    logger.setAdditive(false);
  }

  @AfterEach
  void releaseLog() {
    logger.detachAppender(logged);
    logger.setLevel(null);
    logger.setAdditive(true);
  }

  private OutageRetry retry(Duration grace) {
    return new OutageRetry(URI, HINT, grace, clock, millis -> {
      pauses.add(millis);
      clock.advance(Duration.ofMillis(millis)); // the clock moves only by the pauses
    });
  }

  private static RedisException refused() {
    return new RedisConnectionException("Unable to connect to 127.0.0.1:6379",
        new ConnectException("Connection refused"));
  }

  /** A command that fails with {@code failure} {@code times} times, then answers "ok". */
  private static Supplier<String> failing(int times, Supplier<RedisException> failure, AtomicInteger runs) {
    return () -> {
      if (runs.incrementAndGet() <= times) {
        throw failure.get();
      }
      return "ok";
    };
  }

  private List<String> messages(Level level) {
    return logged.list.stream().filter(e -> e.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Test
  void anOutageIsWaitedOutWithGrowingPausesAndOneWarningAndOneNotice() {
    OutageRetry retry = retry(Duration.ofSeconds(60));
    AtomicInteger runs = new AtomicInteger();
    assertEquals("ok", retry.call(failing(9, OutageRetryTest::refused, runs)));
    assertEquals(10, runs.get());
    assertEquals(List.of(50L, 100L, 200L, 400L, 800L, 1000L, 1000L, 1000L), pauses, "the first retry at once");
    assertEquals(List.of("Redis at " + URI + " unreachable (Connection refused): retrying for up to 60s"),
        messages(Level.WARN));
    assertEquals(List.of("Redis at " + URI + " answers again after 4.5s; the crawl goes on"), messages(Level.INFO));
    assertEquals(1, retry.recoveries());
    assertTrue(retry.recoveredWithin(1, TimeUnit.SECONDS.toNanos(4)), "an outage of 4.5 s just ended");
    assertFalse(retry.recoveredWithin(1, TimeUnit.SECONDS.toNanos(5)));
  }

  @Test
  void anotherThreadsFailuresDuringTheSameOutageLogNothingMore() {
    OutageRetry retry = retry(Duration.ofSeconds(60));
    AtomicInteger outer = new AtomicInteger();
    // while one command waits, another fails and succeeds: one outage, one WARN, one INFO
    assertEquals("ok", retry.call(() -> {
      if (outer.incrementAndGet() == 1) {
        assertEquals("ok", retry.call(failing(3, OutageRetryTest::refused, new AtomicInteger())));
        throw refused(); // sent before Redis answered again: part of the outage that ended
      }
      return "ok";
    }));
    assertEquals(1, messages(Level.WARN).size(), logged.list.toString());
    assertEquals(1, messages(Level.INFO).size(), logged.list.toString());
    assertEquals(1, retry.recoveries());
  }

  @Test
  void aDroppedConnectionMadeAgainAtOnceIsNoOutageToTellOf() {
    OutageRetry retry = retry(Duration.ofSeconds(60));
    assertEquals("ok", retry.call(failing(1, () -> new RedisException("Connection disconnected"),
        new AtomicInteger())));
    assertTrue(pauses.isEmpty());
    assertTrue(logged.list.isEmpty(), logged.list.toString());
    assertEquals(1, retry.recoveries(), "counted all the same: a reply may have been lost");
  }

  @Test
  void pastTheGraceTheCommandFailsSayingForHowLongAndHowToGoOnAndSoDoesEveryLaterOne() {
    OutageRetry retry = retry(Duration.ofSeconds(2));
    AtomicInteger runs = new AtomicInteger();
    OutageRetry.GaveUp e = assertThrows(OutageRetry.GaveUp.class,
        () -> retry.call(failing(100, OutageRetryTest::refused, runs)));
    assertEquals("Redis at " + URI + " has been unreachable for 2s (Connection refused); " + HINT, e.getMessage());
    assertEquals(2_000, pauses.stream().mapToLong(Long::longValue).sum(), "no pause past the grace: " + pauses);
    int before = runs.get();
    OutageRetry.GaveUp again = assertThrows(OutageRetry.GaveUp.class, () -> retry.call(() -> "never sent"));
    assertEquals(e.getMessage(), again.getMessage());
    assertEquals(before, runs.get());
    assertTrue(retry.gaveUp());
    assertTrue(messages(Level.INFO).isEmpty(), "Redis never answered");
  }

  @Test
  void withNoGraceTheFirstFailureEndsItWithoutAWarning() {
    OutageRetry retry = retry(Duration.ZERO);
    OutageRetry.GaveUp e = assertThrows(OutageRetry.GaveUp.class,
        () -> retry.call(failing(1, OutageRetryTest::refused, new AtomicInteger())));
    assertEquals("Redis at " + URI + " is unreachable (Connection refused); " + HINT, e.getMessage());
    assertTrue(pauses.isEmpty());
    assertTrue(messages(Level.WARN).isEmpty());
  }

  @Test
  void anErrorRedisAnswersWithIsNoOutageAndFailsAtOnce() {
    OutageRetry retry = retry(Duration.ofSeconds(60));
    RedisException error = new RedisCommandExecutionException("WRONGTYPE Operation against a key");
    assertSame(error, assertThrows(RedisException.class, () -> retry.call(() -> {
      throw error;
    })));
    RedisException wrongPassword = new RedisConnectionException("Unable to connect",
        new RedisCommandExecutionException("WRONGPASS invalid username-password pair"));
    assertSame(wrongPassword, assertThrows(RedisException.class, () -> retry.call(() -> {
      throw wrongPassword;
    })));
    assertTrue(pauses.isEmpty());
    assertTrue(logged.list.isEmpty(), logged.list.toString());
  }

  @Test
  void whatCountsAsAnOutage() {
    assertTrue(OutageRetry.isOutage(refused()));
    assertTrue(OutageRetry.isOutage(new RedisLoadingException("LOADING Redis is loading the dataset in memory")));
    assertTrue(OutageRetry.isOutage(new RedisException("Connection disconnected")));
    assertTrue(OutageRetry.isOutage(new RedisException("Currently not connected. Commands are rejected.")));
    assertTrue(OutageRetry.isOutage(new io.lettuce.core.RedisCommandTimeoutException("Command timed out")));
    assertTrue(OutageRetry.isOutage(new RedisException(new java.io.IOException("Connection reset by peer"))));
    assertTrue(OutageRetry.isOutage(new RedisCommandExecutionException("CLUSTERDOWN The cluster is down")));
    assertTrue(OutageRetry.isOutage(new RedisCommandExecutionException("TRYAGAIN Multiple keys request during"
        + " rehashing of slot")));
    assertTrue(OutageRetry.isOutage(new io.lettuce.core.cluster.PartitionSelectorException("Cannot determine a"
        + " partition for slot 3739.", null)));
    assertFalse(OutageRetry.isOutage(new RedisCommandExecutionException("OOM command not allowed")));
    assertFalse(OutageRetry.isOutage(new RedisCommandExecutionException("ERR " + Scripts.LOST)));
  }

  @Test
  void aStoppingAgentGivesUpAtTheNextFailure() {
    OutageRetry retry = retry(Duration.ofSeconds(60));
    retry.stopWaiting();
    assertEquals("ok", retry.call(() -> "ok"), "Redis answering is not waited for");
    OutageRetry.GaveUp e = assertThrows(OutageRetry.GaveUp.class,
        () -> retry.call(failing(1, OutageRetryTest::refused, new AtomicInteger())));
    assertTrue(e.getMessage().endsWith(HINT), e.getMessage());
    assertTrue(pauses.isEmpty());
  }

  @Test
  void aFailoverToldWhileACommandWaitsIsOneWarningAndItsAnswerOneNoticeTimedFromTheWait() {
    OutageRetry retry = retry(Duration.ofSeconds(60));
    long waitingSince = clock.nanos();
    assertEquals("ok", retry.call(() -> {
      clock.advance(Duration.ofMillis(1_500));
      retry.failingOver("cannot serve the crawl's keys: master 10.0.0.3:7003 is unreachable", waitingSince);
      retry.failingOver("told again by another way in", waitingSince);
      clock.advance(Duration.ofMillis(3_000));
      return "ok";
    }));
    assertEquals(List.of("Redis at " + URI + " cannot serve the crawl's keys: master 10.0.0.3:7003 is unreachable:"
        + " retrying for up to 60s"), messages(Level.WARN));
    assertEquals(List.of("Redis at " + URI + " answers again after 4.5s; the crawl goes on"), messages(Level.INFO));
    assertEquals(1, retry.recoveries());
  }

  @Test
  void aCommandFailingDuringAFailoverAlreadyToldAddsNoWarning() {
    OutageRetry retry = retry(Duration.ofSeconds(60));
    retry.failingOver("cannot serve the crawl's keys: master 10.0.0.3:7003 is unreachable", clock.nanos());
    assertEquals("ok", retry.call(failing(4, OutageRetryTest::refused, new AtomicInteger())));
    assertEquals(1, messages(Level.WARN).size(), logged.list.toString());
    assertEquals(1, messages(Level.INFO).size(), logged.list.toString());
  }

  @Test
  void onAClusterTheWarningOfAFailingCommandNamesTheMasterFoundDead() {
    AtomicInteger asked = new AtomicInteger();
    OutageRetry retry = new OutageRetry(URI, HINT, Duration.ofSeconds(60), clock, millis -> clock.advance(
        Duration.ofMillis(millis)), () -> asked.incrementAndGet() == 1
            ? "cannot serve the crawl's keys: master 10.0.0.3:7003 is unreachable" : null);
    assertEquals("ok", retry.call(failing(5, OutageRetryTest::refused, new AtomicInteger())));
    assertEquals(List.of("Redis at " + URI + " cannot serve the crawl's keys: master 10.0.0.3:7003 is unreachable"
        + " (Connection refused): retrying for up to 60s"), messages(Level.WARN));
    assertEquals(1, asked.get(), "the masters are tried once an outage");
  }
}

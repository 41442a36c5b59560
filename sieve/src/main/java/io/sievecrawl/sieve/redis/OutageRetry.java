package io.sievecrawl.sieve.redis;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisLoadingException;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How an agent rides out a Redis outage (a restart, a dropped connection, Redis loading its data again): a command
 * that failed for want of Redis is sent again at once (a dropped connection is made again), then after pauses from
 * {@value #FIRST_PAUSE_MILLIS} ms doubling up to {@value #MAX_PAUSE_MILLIS} ms, until the grace period, counted from
 * the outage's first failure, runs out; from then on every command fails at once. One WARN when the outage outlasts
 * that first retry, one INFO when Redis answers again, however many threads wait meanwhile.
 *
 * <p>A command retried this way may have run already, its reply lost with the connection: {@link Scripts} says for
 * each script why a second run is safe or what it costs.
 */
final class OutageRetry {
  private static final Logger log = LoggerFactory.getLogger(OutageRetry.class);
  static final long FIRST_PAUSE_MILLIS = 50;
  static final long MAX_PAUSE_MILLIS = 1_000;

  /** Waits between attempts; {@link #wake} ends the waits of a stopping agent early. */
  interface Pause {
    void sleep(long millis) throws InterruptedException;

    default void wake() {}
  }

  /** The grace period ran out, or the agent stopped waiting: the message says so and how to go on. */
  static final class GaveUp extends RuntimeException {
    private static final long serialVersionUID = 1L;

    GaveUp(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final String uri;
  private final String hint;
  private final long graceNanos;
  private final Ticker ticker;
  private final Pause pause;
  private final Object state = new Object();
  private volatile boolean down; // an outage is under way: written under state
  private long downSince; // guarded by state
  private boolean announced; // guarded by state: the outage's WARN was logged
  private long recoveries; // guarded by state
  private long recoveredAt; // guarded by state
  private long lastOutage; // guarded by state: how long the last outage lasted
  private volatile String gaveUp; // once set, every command fails at once with it
  private volatile boolean stopping;
  private final Supplier<String> failover; // on a Redis Cluster, the masters found dead (FailoverWatch); or null

  /**
   * @param uri Redis as messages show it
   * @param hint how to go on once Redis is back, ending the message of a give-up
   * @param ticker the agent's ticker: the grace period and the outages are timed on it
   */
  OutageRetry(String uri, String hint, Duration grace, Ticker ticker, Pause pause) {
    this(uri, hint, grace, ticker, pause, null);
  }

  /**
   * @param failover on a Redis Cluster, what to say of masters that cannot be reached ({@code null} if none), asked
   *     when an outage is told; {@code null} for one server
   */
  OutageRetry(String uri, String hint, Duration grace, Ticker ticker, Pause pause, Supplier<String> failover) {
    this.failover = failover;
    this.uri = uri;
    this.hint = hint;
    this.graceNanos = grace.toNanos();
    this.ticker = ticker;
    this.pause = pause;
  }

  /** Waits by the wall clock, cut short by {@link #stopWaiting}. */
  static Pause monitorPause() {
    Object monitor = new Object();
    return new Pause() {
      @Override
      public void sleep(long millis) throws InterruptedException {
        synchronized (monitor) {
          monitor.wait(millis); // a spurious wake-up only brings the next attempt forward
        }
      }

      @Override
      public void wake() {
        synchronized (monitor) {
          monitor.notifyAll();
        }
      }
    };
  }

  /**
   * Runs {@code command}, again after a pause while it fails for want of Redis.
   *
   * @throws GaveUp once Redis has been unreachable for the grace period (or the agent stopped waiting)
   * @throws RedisException a failure that is no outage (an error reply, a refused password), at once
   */
  <R> R call(Supplier<R> command) {
    long wait = 0;
    while (true) {
      String given = gaveUp;
      if (given != null) {
        throw new GaveUp(given, null);
      }
      long sent = ticker.nanos();
      try {
        R result = command.get();
        answered();
        return result;
      } catch (RedisException e) {
        if (!isOutage(e)) {
          answered(); // Redis answered, if with an error
          throw e;
        }
        long elapsed = failed(e, sent);
        if (stopping || elapsed >= graceNanos) {
          throw giveUp(e, elapsed);
        }
        if (wait > 0) {
          announce(e);
          try {
            pause.sleep(Math.max(1, Math.min(wait, TimeUnit.NANOSECONDS.toMillis(graceNanos - elapsed))));
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw giveUp(e, failed(e, sent));
          }
        }
        wait = wait == 0 ? FIRST_PAUSE_MILLIS : Math.min(MAX_PAUSE_MILLIS, wait * 2);
      }
    }
  }

  /** Ends every wait at once and gives up on any outage from now on: the agent is stopping. */
  void stopWaiting() {
    stopping = true;
    pause.wake();
  }

  /** Whether this agent gave up on Redis: every command fails at once. */
  boolean gaveUp() {
    return gaveUp != null;
  }

  /** Outages that ended so far. */
  long recoveries() {
    synchronized (state) {
      return recoveries;
    }
  }

  /** Whether an outage of at least {@code longerThan} ended less than {@code within} ago (nanoseconds both). */
  boolean recoveredWithin(long within, long longerThan) {
    synchronized (state) {
      return recoveries > 0 && lastOutage >= longerThan && ticker.nanos() - recoveredAt < within;
    }
  }

  /**
   * Notes the failure of a command sent at {@code sent}; returns how long the outage has lasted. A command sent
   * before the last outage ended belongs to that outage, and starts none.
   */
  private long failed(RedisException e, long sent) {
    synchronized (state) {
      long now = ticker.nanos();
      if (!down && recoveries > 0 && sent - recoveredAt < 0) {
        return 0;
      }
      if (!down) {
        down = true;
        downSince = now;
        announced = false;
      }
      return now - downSince;
    }
  }

  /** Logs the outage's one WARN: it outlasted a retry at once, so it is no mere dropped connection. */
  private void announce(RedisException e) {
    synchronized (state) {
      if (!down || announced) {
        return;
      }
    }
    String failing = failover == null ? null : failover.get(); // outside the lock: it tries the masters
    synchronized (state) {
      if (down && !announced) {
        announced = true;
        String message = RedisFailures.rootMessage(e);
        log.warn("Redis at {} {} ({}): retrying for up to {}", uri, failing != null ? failing : movingSlot(message)
            ? "cannot serve the crawl's keys while their slot moves or fails over" : "unreachable", message,
            duration(graceNanos));
      }
    }
  }

  /**
   * A master of a Redis Cluster died ({@link FailoverWatch}): the commands bound for it wait, since {@code since}
   * on the ticker, for the replica that takes over. Told as an outage of its own, unless one is told already; its
   * INFO comes when a command answers again.
   */
  void failingOver(String what, long since) {
    synchronized (state) {
      if (gaveUp != null) {
        return;
      }
      if (!down) {
        down = true;
        downSince = since;
        announced = false;
      }
      if (!announced) {
        announced = true;
        log.warn("Redis at {} {}: retrying for up to {}", uri, what, duration(graceNanos));
      }
    }
  }

  private void answered() {
    if (!down) {
      return; // the common case costs one volatile read
    }
    synchronized (state) {
      if (down && gaveUp == null) {
        down = false;
        recoveries++;
        recoveredAt = ticker.nanos();
        lastOutage = recoveredAt - downSince;
        if (announced) {
          log.info("Redis at {} answers again after {}; the crawl goes on", uri, duration(recoveredAt - downSince));
        }
      }
    }
  }

  private GaveUp giveUp(RedisException e, long elapsed) {
    synchronized (state) {
      if (gaveUp == null) {
        long shown = Math.min(elapsed, graceNanos); // the grace, unless the agent stopped waiting before its end
        gaveUp = "Redis at " + uri + (shown < TimeUnit.SECONDS.toNanos(1) ? " is unreachable"
            : " has been unreachable for " + duration(shown)) + " (" + RedisFailures.rootMessage(e) + "); " + hint;
      }
      return new GaveUp(gaveUp, e);
    }
  }

  /**
   * Whether the failure means Redis cannot answer now: it cannot be reached, the connection dropped (the reply of a
   * command in flight is then lost), it did not answer in time, or it is loading its data after a restart; on a
   * Redis Cluster, also while a slot has no master ({@code CLUSTERDOWN}, until a replica takes over) or is halfway
   * through a migration ({@code TRYAGAIN}: a script's keys are split between two nodes for a moment). A refused
   * password is no outage, nor is any other error Redis answers with.
   */
  static boolean isOutage(RedisException e) {
    String message = RedisFailures.rootMessage(e);
    if (e instanceof RedisLoadingException || e instanceof RedisCommandTimeoutException
        || message.startsWith("LOADING") || movingSlot(message)) {
      return true;
    }
    if (message.contains("WRONGPASS") || message.contains("NOAUTH") || message.contains("invalid password")) {
      return false;
    }
    return e instanceof RedisConnectionException || RedisFailures.hasCause(e, IOException.class)
        || message.startsWith("Connection disconnected") || message.startsWith("Currently not connected")
        || message.startsWith("Connection closed") || message.startsWith("Connection is closed");
  }

  /**
   * Whether a Redis Cluster answered that a slot is moving or has no master for now, or Lettuce's view of the cluster
   * has none for it (a master that died is left out of it before its replica is known to have taken over).
   */
  private static boolean movingSlot(String message) {
    return message.startsWith("CLUSTERDOWN") || message.startsWith("TRYAGAIN")
        || message.startsWith("Cannot determine a partition for slot");
  }

  /** {@code 60s}, {@code 2.5s}, {@code 800ms}. */
  static String duration(long nanos) {
    long millis = TimeUnit.NANOSECONDS.toMillis(nanos);
    if (millis < 1_000) {
      return millis + "ms";
    }
    return millis % 1_000 < 100 || millis >= 10_000 ? millis / 1_000 + "s"
        : millis / 1_000 + "." + (millis % 1_000) / 100 + "s";
  }
}

package io.sievecrawl.sieve.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisLoadingException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.Ticker;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * How a running crawl's commands reach Redis: on the one connection every thread shares ({@link SharedConnection}),
 * riding out an outage for the grace period ({@link OutageRetry}), scripts by their SHA, and a Redis failure turned
 * into the frontier's failure naming its cause. On a Redis Cluster, the commands in flight are watched for a master
 * that died ({@link FailoverWatch}).
 */
final class RedisCalls implements AutoCloseable {
  private final RedisLink link;
  private final SharedConnection connection;
  private final Ticker ticker;
  private final String uri;
  private final String name;
  private final Map<String, String> shas = new ConcurrentHashMap<>();
  private final FailoverWatch watch; // null for one server
  private volatile OutageRetry retry;

  /**
   * @param uri the Redis URI as shown
   * @param name the crawl's name: its meta key must be there on every new connection
   */
  RedisCalls(RedisLink link, String uri, String name, Ticker ticker) {
    this.uri = uri;
    this.name = name;
    this.ticker = ticker;
    this.link = link;
    this.connection = new SharedConnection(link, CrawlKeys.key(name, "meta"), this::lost);
    this.watch = link.failoverWatch(ticker, (what, since) -> {
      OutageRetry current = retry;
      if (current != null) { // null only while this constructor runs
        current.failingOver(what, since);
      }
    });
    this.retry = outageRetry(Duration.ZERO);
  }

  /** How long commands ride out Redis being unreachable before they fail; zero fails at the first failure. */
  void setOutageGrace(Duration grace) {
    retry = outageRetry(grace);
  }

  private OutageRetry outageRetry(Duration grace) {
    return new OutageRetry(uri, "'sievecrawl join --redis " + uri + " --crawl-name " + name + "' continues the crawl"
        + " once it is back", grace, ticker, OutageRetry.monitorPause(),
        watch == null ? null : watch::unreachableMasters);
  }

  /** This agent is stopping: a command waiting for Redis gives up at once, and so does any after it. */
  void stopWaiting() {
    retry.stopWaiting();
  }

  OutageRetry outages() {
    return retry;
  }

  /** {@link RedisLink#layout}: changes when a replica of a Redis Cluster took over or a slot moved. */
  long clusterLayout() {
    return link.layout();
  }

  /**
   * Runs {@code command} on the shared connection, riding out an outage: while Redis cannot answer, it is sent again
   * after a pause until the grace period runs out. Only a command whose second run is safe after a first one whose
   * reply was lost may come here. A Redis failure becomes a {@link FrontierFailure} naming the cause.
   */
  <R> R call(Function<RedisClusterCommands<String, byte[]>, R> command) {
    try {
      return retry.call(() -> {
        long sent = watch == null ? 0 : watch.sending();
        RedisLink.Connection used = null;
        try {
          used = connection.live();
          return command.apply(used.sync());
        } catch (RedisException e) {
          if (used != null && OutageRetry.isOutage(e) && !(e instanceof RedisLoadingException)) {
            connection.dropped(used); // Redis loading its data answers on the same connection
          }
          throw e;
        } finally {
          if (watch != null) {
            watch.done(sent);
          }
        }
      });
    } catch (OutageRetry.GaveUp e) {
      throw new FrontierFailure(e.getMessage(), new SharedCrawlException(SharedCrawlException.Kind.UNREACHABLE,
          e.getMessage()));
    } catch (RedisException e) {
      throw asFailure(e);
    }
  }

  /**
   * Runs {@code read} once, without waiting for Redis: {@code null} when it cannot answer now, for what only shows
   * the crawl's state (progress lines, summaries).
   */
  <R> R readNow(Function<RedisClusterCommands<String, byte[]>, R> read) {
    try {
      return connection.vanished() || retry.gaveUp() ? null : read.apply(connection.live().sync());
    } catch (RedisException | FrontierFailure e) {
      return null;
    }
  }

  /**
   * Runs a script by its SHA through {@link #call}, sending it whole (which has the server keep it) where the server
   * does not know it; a reply {@link Scripts#LOST} or a Redis failure becomes a {@link FrontierFailure} naming the
   * cause.
   *
   * <p>The SHA is computed here rather than asked of Redis with SCRIPT LOAD: on a cluster, Lettuce sends SCRIPT LOAD
   * to every master, and a master that died stays listed (as failed) after its replica took over, so that every
   * SCRIPT LOAD would fail from then on. A node that does not know a script (a restarted server, a replica that took
   * over, a node a slot moved to) answers NOSCRIPT once.
   */
  <R> R eval(String script, ScriptOutputType type, String[] keys, byte[]... args) {
    return call(redis -> {
      String sha = shas.computeIfAbsent(script, redis::digest);
      try {
        return redis.evalsha(sha, type, keys, args);
      } catch (RedisCommandExecutionException e) {
        if (String.valueOf(e.getMessage()).startsWith("NOSCRIPT")) {
          return redis.eval(script, type, keys, args);
        }
        throw e;
      }
    });
  }

  private FrontierFailure lost() {
    return new FrontierFailure(lostMessage(), new SharedCrawlException(SharedCrawlException.Kind.LOST,
        lostMessage()));
  }

  /** A Redis failure as the frontier's failure, saying when the crawl's data vanished. */
  private FrontierFailure asFailure(RedisException e) {
    if (String.valueOf(RedisFailures.rootMessage(e)).contains(Scripts.LOST)) {
      return lost();
    }
    SharedCrawlException cause = RedisFailures.failure(uri, e);
    return new FrontierFailure(cause.getMessage(), cause);
  }

  /** What the crawl's data having vanished from Redis is told as. */
  String lostMessage() {
    return "the shared crawl '" + name + "' vanished from Redis at " + uri + " (restarted without persistence, or"
        + " flushed); its frontier is gone: run Redis with appendonly yes";
  }

  @Override
  public void close() {
    if (watch != null) {
      watch.close();
    }
    connection.close();
  }
}

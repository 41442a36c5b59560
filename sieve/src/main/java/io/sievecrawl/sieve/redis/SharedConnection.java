package io.sievecrawl.sieve.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.util.function.Supplier;

/**
 * The one connection an agent's threads share, made again when it drops. Lettuce's own reconnection is off: it
 * would send the commands in flight again behind the caller's back, and which commands may run twice is for the
 * caller to decide ({@link OutageRetry}, {@link Scripts}). On a new connection the crawl must still be there before
 * any command runs: Redis that came back without it is no outage to wait out. On a Redis Cluster, a new connection
 * follows a fresh read of the cluster's topology ({@link RedisLink#refreshTopology}): the node that dropped may have
 * been replaced by its replica.
 */
final class SharedConnection implements AutoCloseable {
  static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

  private final RedisLink link;
  private final String metaKey;
  private final Supplier<RuntimeException> gone;
  private final Object reconnecting = new Object();
  private volatile RedisLink.Connection connection;
  private volatile boolean dropped; // the current connection failed: make a new one
  private volatile boolean crawlSeen = true; // the crawl's meta was found through the current connection
  private volatile boolean vanished; // the crawl's meta was found gone: fail with gone() from now on

  /**
   * @param metaKey the key that exists as long as the crawl does
   * @param gone the failure once Redis is found without the crawl
   */
  SharedConnection(RedisLink link, String metaKey, Supplier<RuntimeException> gone) {
    this.link = link;
    this.connection = link.first();
    this.metaKey = metaKey;
    this.gone = gone;
  }

  /**
   * The connection, made again if it was lost.
   *
   * @throws RedisException while Redis cannot be reached
   * @throws RuntimeException {@code gone}'s, when Redis is back without the crawl
   */
  RedisLink.Connection live() {
    if (vanished) {
      throw gone.get();
    }
    RedisLink.Connection current = connection;
    if (current.isOpen() && crawlSeen && !dropped) {
      return current;
    }
    synchronized (reconnecting) {
      if (!connection.isOpen() || dropped) {
        if (connection.isOpen()) {
          connection.stateful().closeAsync(); // Lettuce closes one that dropped itself
        }
        crawlSeen = false;
        link.refreshTopology();
        connection = link.connect();
        dropped = false;
      }
      if (!crawlSeen) {
        if (connection.sync().exists(metaKey) == 0) {
          vanished = true;
          throw gone.get();
        }
        crawlSeen = true;
      }
      return connection;
    }
  }

  /**
   * A command on {@code used} failed for want of Redis: the next one makes a new connection, as Lettuce may not have
   * noticed the drop yet.
   */
  void dropped(RedisLink.Connection used) {
    synchronized (reconnecting) {
      if (connection == used) {
        dropped = true;
      }
    }
  }

  /** Whether Redis was found without the crawl. */
  boolean vanished() {
    return vanished;
  }

  /** Closes the connection, and any other the link made. */
  @Override
  public void close() {
    link.close();
  }
}

package io.sievecrawl.crawler.fetch;

import io.sievecrawl.sieve.Shards;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import okhttp3.ConnectionPool;
import okhttp3.CookieJar;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.internal.concurrent.TaskRunner;
import okhttp3.internal.connection.ConnectionListener;

/**
 * The crawl's HTTP clients: one client in all but its connection pool, split into shards of origins, so that a
 * connection is kept for every origin that has work due soon, as a browser keeps one per site it is showing.
 *
 * <p>An origin (scheme, host, port) always goes to the same shard. A connection left idle is kept until
 * {@link #keepAlive(Duration)} has passed without a request on it (the origin went idle: nothing due on it for longer
 * than the politeness delay allows), or until its shard holds more idle connections than its share of the budget
 * ({@link #idleBudget(int, long, long)}), when the one idle longest goes; the pools look at most a second late
 * ({@link PoolUpkeep}).
 *
 * <p>The clients for https origins may be made on the first request to one ({@link #of(OkHttpClient, Supplier, int,
 * Duration)}): they share the pools of the cleartext clients.
 */
public final class ConnectionPools {
  /*
   * Why shards. OkHttp's pool is a list: acquiring a connection walks it for one to the call's address, and every
   * connection released schedules a walk of all of it for one to evict. With the connections of a broad crawl in one
   * pool (thousands of them) every page would pay for thousands of steps; a shard holds at most PER_SHARD, so a page
   * pays for that many at most. The shards share everything else (dispatcher, interceptors, cookie jar, TLS set-up,
   * event listener), so a robots.txt fetch and the pages after it use the same connection.
   *
   * The budget. An idle connection holds a file descriptor, and on the heap its socket, buffers and, over TLS, its
   * session and record buffers: 64 KB at most is assumed. The pools keep idle connections for at most half the file
   * descriptors the process may still open (the rest is for the crawl's files and the connections in use) and a
   * sixteenth of the heap; never fewer than twice the concurrency (what a single pool used to keep), nor more than
   * MAX_IDLE. With a default heap of a quarter of 8 GB, 2,048 connections.
   *
   * TLS on demand. A client that may speak TLS loads the JDK's trust store when it is built (OkHttp reads the trust
   * manager's authorities at once): some 50 ms of a 62-page crawl's start, spent for nothing on an http-only crawl.
   * So the https clients may come from a supplier, called once, by the first request to an https origin (a worker
   * holding a lock for that while, not a monitor, which would pin a virtual thread's carrier on Java 21; the others
   * asking meanwhile wait for it), and kept in a volatile field: a client read from it is complete. A supplier that
   * fails (the JDK's trust store unreadable) is not asked again: every https request fails with its error. They are built on the same pools, shard by shard, so connectionCount
   * and evictAll see every connection.
   */
  static final int PER_SHARD = 64;
  static final long BYTES_PER_IDLE_CONNECTION = 64 * 1024;
  static final int MAX_IDLE = 20_000;

  private final ConnectionPool[] pools;
  private final ShardClients shards;
  private final Supplier<OkHttpClient> tlsBase; // null: the shards speak TLS too
  private volatile ShardClients tlsShards;
  private final ReentrantLock tlsLock = new ReentrantLock();
  private RuntimeException tlsFailure; // under tlsLock
  private final int idleBudget;
  private final PoolUpkeep upkeep = new PoolUpkeep();

  private ConnectionPools(OkHttpClient base, Supplier<OkHttpClient> tlsBase, int idleBudget, Duration keepAlive) {
    this.idleBudget = idleBudget;
    this.tlsBase = tlsBase;
    int count = Math.max(1, (idleBudget + PER_SHARD - 1) / PER_SHARD);
    int perShard = (idleBudget + count - 1) / count;
    this.pools = new ConnectionPool[count];
    TaskRunner runner = upkeep.taskRunner();
    for (int i = 0; i < count; i++) {
      pools[i] = new ConnectionPool(perShard, keepAlive.toMillis(), TimeUnit.MILLISECONDS, runner,
          ConnectionListener.Companion.getNONE());
    }
    this.shards = new ShardClients(base, pools);
  }

  /** One client a shard, on the shards' pools, and the same clients without the user's headers and cookies. */
  private static final class ShardClients {
    final OkHttpClient[] clients;
    final OkHttpClient[] bare;

    ShardClients(OkHttpClient base, ConnectionPool[] pools) {
      clients = new OkHttpClient[pools.length];
      bare = new OkHttpClient[pools.length];
      for (int i = 0; i < pools.length; i++) {
        clients[i] = base.newBuilder().connectionPool(pools[i]).build();
        bare[i] = bare(clients[i]);
      }
    }

    /** {@code client} without the user's extra headers ({@link RequestHeaders}) and cookies, on its pool. */
    private static OkHttpClient bare(OkHttpClient client) {
      OkHttpClient.Builder bare = client.newBuilder().cookieJar(CookieJar.NO_COOKIES);
      bare.networkInterceptors().removeIf(interceptor -> interceptor instanceof RequestHeaders);
      return bare.build();
    }
  }

  /**
   * Clients made from {@code base} (whose own pool is not used) keeping up to {@code idleBudget} idle connections,
   * each closed after {@code keepAlive} unused.
   */
  public static ConnectionPools of(OkHttpClient base, int idleBudget, Duration keepAlive) {
    return of(base, null, idleBudget, keepAlive);
  }

  /**
   * Clients as {@link #of(OkHttpClient, int, Duration)} makes them, but for https origins made from the client
   * {@code tlsBase} supplies, asked once, by the first request to an https origin; {@code cleartext} need not speak
   * TLS. A null {@code tlsBase} means {@code cleartext} speaks TLS too.
   */
  public static ConnectionPools of(OkHttpClient cleartext, Supplier<OkHttpClient> tlsBase, int idleBudget,
      Duration keepAlive) {
    if (idleBudget < 1 || keepAlive.isNegative() || keepAlive.isZero()) {
      throw new IllegalArgumentException("idle budget must be at least 1 and keep-alive positive, were " + idleBudget
          + " and " + keepAlive);
    }
    return new ConnectionPools(cleartext, tlsBase, idleBudget, keepAlive);
  }

  /**
   * How long a connection is kept without a request: longer than an origin with work due waits between two requests
   * (the politeness delay, twice over, plus 30 s for adaptive slow-downs and the origin's turn among many).
   */
  public static Duration keepAlive(Duration politenessDelay) {
    return Duration.ofSeconds(30).plus(politenessDelay).plus(politenessDelay); // multipliedBy goes through BigDecimal
  }

  /**
   * The idle connections a crawl of {@code concurrency} may keep with {@code maxHeap} bytes of heap and
   * {@code freeFileDescriptors} more files it may open (negative when unknown), as described above.
   */
  static int idleBudget(int concurrency, long maxHeap, long freeFileDescriptors) {
    long byHeap = maxHeap / 16 / BYTES_PER_IDLE_CONNECTION;
    long byFiles = freeFileDescriptors < 0 ? Long.MAX_VALUE : freeFileDescriptors / 2;
    long budget = Math.min(MAX_IDLE, Math.min(byHeap, byFiles));
    return (int) Math.max(budget, Math.max(8, 2L * concurrency));
  }

  /** {@link #idleBudget(int, long, long)} for this process: its heap limit and its file descriptors left. */
  static int idleBudget(int concurrency) {
    long free = -1;
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
      free = os.getMaxFileDescriptorCount() - os.getOpenFileDescriptorCount();
    }
    return idleBudget(concurrency, Runtime.getRuntime().maxMemory(), free);
  }

  /** The client for requests to {@code url}'s origin. */
  public OkHttpClient clientFor(HttpUrl url) {
    return shardsFor(url).clients[shardOf(url)];
  }

  /**
   * The client for requests to {@code url}'s origin when it is outside the crawl's scope (a page's requisite on a
   * CDN): the same connections, but neither the user's extra headers (fetch.header) nor cookies, sent or kept.
   */
  public OkHttpClient bareClientFor(HttpUrl url) {
    return shardsFor(url).bare[shardOf(url)];
  }

  private ShardClients shardsFor(HttpUrl url) {
    if (!url.isHttps() || tlsBase == null) {
      return shards;
    }
    ShardClients tls = tlsShards;
    return tls != null ? tls : makeTlsShards();
  }

  private ShardClients makeTlsShards() {
    tlsLock.lock();
    try {
      if (tlsFailure != null) {
        throw tlsFailure;
      }
      if (tlsShards == null) {
        try {
          tlsShards = new ShardClients(tlsBase.get(), pools);
        } catch (RuntimeException e) {
          tlsFailure = e;
          throw e;
        }
      }
      return tlsShards;
    } finally {
      tlsLock.unlock();
    }
  }

  private int shardOf(HttpUrl url) {
    return shardOf(url, pools.length);
  }

  /** The shard of {@code url}'s origin among {@code count}. */
  static int shardOf(HttpUrl url, int count) {
    return Shards.of((url.host().hashCode() * 31 + url.port()) * 31 + (url.isHttps() ? 1 : 0), count);
  }

  /** The idle connections the shards keep at most, together. */
  public int idleBudget() {
    return idleBudget;
  }

  /** Connections open now, in use or idle. */
  public int connectionCount() {
    int n = 0;
    for (ConnectionPool pool : pools) {
      n += pool.connectionCount();
    }
    return n;
  }

  /** Closes every idle connection. */
  public void evictAll() {
    for (ConnectionPool pool : pools) {
      pool.evictAll();
    }
  }

  /** Closes every idle connection and ends the pools' upkeep: at the end of the crawl. */
  public void close() {
    evictAll();
    upkeep.shutdown();
  }

  int shardCount() {
    return pools.length;
  }
}

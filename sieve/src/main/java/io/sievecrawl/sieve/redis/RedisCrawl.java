package io.sievecrawl.sieve.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.sievecrawl.sieve.BloomSizing;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * One named crawl shared by agents through Redis: this agent's way in to it.
 *
 * <p>{@link #startOrJoin} creates the crawl, or joins it if it exists; {@link #join} joins one that must exist. Either
 * way the crawl keeps the n, p and exact store it was created with ({@link #n}, {@link #p}, {@link #confirmed}): the
 * caller decides whether the settings it came with may join it. One Lettuce connection is shared by every thread: it is thread-safe, and the commands of
 * concurrent workers are pipelined on it.
 *
 * <p>The parts: {@link RedisAddress} reads the URI and connects; {@link CrawlMeta} is the crawl's parameters (n, p,
 * shards, settings) as its meta hash holds them; {@link CrawlKeys} names its keys and {@link Scripts} holds the
 * scripts that change them; every command of a running crawl goes through {@link #call} (scripts through
 * {@link #eval}), which {@link RedisCalls} runs on the shared connection, riding out a Redis outage for the grace
 * period set by {@link #setOutageGrace}; {@link RedisFailures} tells what went wrong in one line.
 */
public final class RedisCrawl implements AutoCloseable {
  private final RedisCalls calls;
  private final Ticker ticker;
  private final String name;
  private final String uri;
  private final String agentId;
  private final CrawlMeta meta;
  private final CrawlKeys keys;

  private RedisCrawl(RedisLink link, String uri, String name, CrawlMeta meta, Ticker ticker) {
    this.uri = uri;
    this.ticker = ticker;
    this.name = name;
    this.calls = new RedisCalls(link, uri, name, ticker);
    this.meta = meta;
    this.keys = new CrawlKeys(name, meta.spread(), meta.shards());
    this.agentId = agentName();
  }

  /**
   * How long commands ride out Redis being unreachable, waiting and retrying, before they fail; zero (until this is
   * called) fails at the first failure. Set before the crawl's frontier opens.
   */
  public void setOutageGrace(Duration grace) {
    calls.setOutageGrace(grace);
  }

  /** The agent's ticker: its outages, leases and pauses are timed on it (the leases' expiry on Redis's clock). */
  Ticker ticker() {
    return ticker;
  }

  /** This agent is stopping: a command waiting for Redis gives up at once, and so does any after it. */
  public void stopWaiting() {
    calls.stopWaiting();
  }

  OutageRetry outages() {
    return calls.outages();
  }

  /** {@link RedisCalls#clusterLayout}. */
  long clusterLayout() {
    return calls.clusterLayout();
  }

  /** {@link #startOrJoin(String, String, long, double, boolean, int, String, Clock, Ticker)} without an exact store. */
  public static RedisCrawl startOrJoin(String rawUri, String name, long n, double p, int shards, String settings,
      Clock clock, Ticker ticker) throws SharedCrawlException {
    return startOrJoin(rawUri, name, n, p, false, shards, settings, clock, ticker);
  }

  /**
   * Creates the crawl {@code name} with {@code n} and {@code p}, or joins it as it exists (with the n and p it was
   * created with, which the caller compares).
   *
   * @param confirm whether a crawl created here keeps an exact store of fingerprints that confirms the filter (a
   *     crawl joined keeps what it was created with)
   * @param clock the wall clock, for the crawl's creation time
   * @param ticker the agent's ticker: the outage grace and the agent's own pauses are timed on it
   * @throws SharedCrawlException if Redis cannot be reached or refuses us, or the crawl is finished or of another
   *     format version
   */
  public static RedisCrawl startOrJoin(String rawUri, String name, long n, double p, boolean confirm, int shards,
      String settings, Clock clock, Ticker ticker) throws SharedCrawlException {
    CrawlKeys.checkName(name);
    String uri = shown(rawUri);
    RedisLink link = RedisAddress.connect(rawUri);
    try {
      RedisClusterCommands<String, byte[]> redis = link.first().sync();
      long created = 0;
      if (redis.exists(CrawlKeys.key(name, "meta")) == 0) {
        created = create(redis, name, CrawlMeta.create(n, p, confirm, shards, link.cluster(), settings, clock));
      }
      CrawlMeta meta = CrawlMeta.read(redis, uri, name);
      ShardCounts.checkVersions(ShardCounts.read(redis, name, meta), uri, name);
      if (created == 0 && ShardCounts.finished(redis, name, meta)) {
        throw new SharedCrawlException(SharedCrawlException.Kind.FINISHED, "the shared crawl '" + name + "' in " + uri
            + " is finished already: choose another --crawl-name, or remove it first with '"
            + SharedCrawlRemoval.command(uri, name) + "'");
      }
      return new RedisCrawl(link, uri, name, meta, ticker);
    } catch (RedisException e) {
      link.close();
      throw failure(uri, e);
    } catch (SharedCrawlException | RuntimeException e) {
      link.close();
      throw e;
    }
  }

  /**
   * Creates the crawl: every shard's hash first (each of this format version, left as it is if it exists), then the
   * meta hash unless another agent made it meanwhile, which is what joining agents look for. Returns 1 if the meta
   * hash was made here.
   */
  private static long create(RedisClusterCommands<String, byte[]> redis, String name, Map<String, String> fields) {
    boolean spread = Boolean.parseBoolean(fields.get("spread"));
    for (int shard = 0; shard < Integer.parseInt(fields.get("shards")); shard++) {
      redis.hsetnx(CrawlKeys.shardKey(name, spread, shard, "shard:" + shard), "version",
          bytes(Integer.toString(CrawlMeta.VERSION)));
    }
    List<byte[]> args = new ArrayList<>();
    fields.forEach((k, v) -> {
      args.add(bytes(k));
      args.add(bytes(v));
    });
    return redis.eval(Scripts.CREATE, ScriptOutputType.INTEGER,
        new String[] {CrawlKeys.key(name, "meta"), CrawlKeys.key(name, "counters")}, args.toArray(byte[][]::new));
  }

  /**
   * Joins the existing crawl {@code name}.
   *
   * @param ticker the agent's ticker: the outage grace and the agent's own pauses are timed on it
   * @throws SharedCrawlException if Redis cannot be reached or refuses us, or there is no such crawl
   */
  public static RedisCrawl join(String rawUri, String name, Ticker ticker) throws SharedCrawlException {
    CrawlKeys.checkName(name);
    String uri = shown(rawUri);
    RedisLink link = RedisAddress.connect(rawUri);
    try {
      RedisClusterCommands<String, byte[]> redis = link.first().sync();
      CrawlMeta meta = CrawlMeta.read(redis, uri, name);
      ShardCounts.checkVersions(ShardCounts.read(redis, name, meta), uri, name);
      return new RedisCrawl(link, uri, name, meta, ticker);
    } catch (RedisException e) {
      link.close();
      throw failure(uri, e);
    } catch (SharedCrawlException | RuntimeException e) {
      link.close();
      throw e;
    }
  }

  /** Redis's clock in milliseconds: agents' heartbeats are written in it. */
  static long redisMillis(RedisClusterCommands<String, byte[]> redis) {
    List<byte[]> time = redis.time();
    return Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII)) * 1000
        + Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII)) / 1000;
  }

  /**
   * {@code uri} with everything between {@code //} and the last {@code @} (a password, and a user name if any) shown
   * as {@code ***}: what every message and log line shows of it. A password belongs in the environment variable
   * SIEVECRAWL_REDIS_PASSWORD rather than the URI, which {@code ps} shows too.
   */
  public static String shown(String uri) {
    return RedisAddress.shown(uri);
  }

  /** A one-line reason for a Redis failure: unreachable, refused credentials, or something else. */
  public static SharedCrawlException failure(String uri, RedisException e) {
    return RedisFailures.failure(uri, e);
  }

  String key(String suffix) {
    return keys.key(suffix);
  }

  /** The names of this crawl's keys. */
  CrawlKeys keys() {
    return keys;
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String agentName() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "agent";
    }
    return host + "-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** {@link RedisCalls#call}: a command that rides out an outage; its failure is a {@link FrontierFailure}. */
  <R> R call(Function<RedisClusterCommands<String, byte[]>, R> command) {
    return calls.call(command);
  }

  /** {@link RedisCalls#readNow}: a read that does not wait for Redis, {@code null} when it cannot answer now. */
  <R> R readNow(Function<RedisClusterCommands<String, byte[]>, R> read) {
    return calls.readNow(read);
  }

  /** {@link RedisCalls#eval}: a script by its SHA, through {@link #call}. */
  <R> R eval(String script, ScriptOutputType type, String[] keys, byte[]... args) {
    return calls.eval(script, type, keys, args);
  }

  String lostMessage() {
    return calls.lostMessage();
  }

  public String name() {
    return name;
  }

  public String uri() {
    return uri;
  }

  /** This agent's name in the crawl: host, process id and a random suffix. */
  public String agentId() {
    return agentId;
  }

  public long n() {
    return meta.n();
  }

  public double p() {
    return meta.p();
  }

  public int shards() {
    return meta.shards();
  }

  /** Whether an exact store of fingerprints, in Redis beside the filter, confirms its "maybe seen" answers. */
  public boolean confirmed() {
    return meta.confirmed();
  }

  /** The exact store's bucket of {@code fingerprint} in layer {@code layer} of its shard's part: its top bits. */
  long bucket(int layer, long fingerprint) {
    return meta.bucket(layer, fingerprint);
  }

  /** The layers a part of the filter may grow when spread ({@link PartLayers}); {@code null} on one Redis. */
  PartLayers layers() {
    return meta.layers();
  }

  /** Whether the crawl is spread over a Redis Cluster: a hash tag, a filter part and a store part per shard. */
  boolean spread() {
    return meta.spread();
  }

  /** The filter's parts: one per shard when spread, else one. */
  int parts() {
    return meta.parts();
  }

  /** The parts of the filter together, as one filter of all their bits. */
  BloomSizing wholeSizing() {
    return meta.wholeSizing();
  }

  /** The failure of every call once the crawl's data is found gone from Redis. */
  FrontierFailure lost() {
    return new FrontierFailure(lostMessage(), new SharedCrawlException(SharedCrawlException.Kind.LOST,
        lostMessage()));
  }

  long seed() {
    return meta.seed();
  }

  /** The sizing of one part of the filter (of the whole filter when not spread). */
  BloomSizing sizing() {
    return meta.sizing();
  }

  /** The settings the crawl was started with, as a config file. */
  public String settings() {
    return meta.settings();
  }

  @Override
  public void close() {
    calls.close();
  }
}

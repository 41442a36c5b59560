package io.sievecrawl.sieve.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisLoadingException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.RedisClusterURIUtil;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomSizing;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One named crawl shared by agents through Redis: the connection, the crawl's parameters (n, p, shards, settings)
 * and its key names, and the scripts that change it.
 *
 * <p>{@link #startOrJoin} creates the crawl, or joins it if it exists with the same n and p; {@link #join} joins one
 * that must exist. One Lettuce connection is shared by every thread: it is thread-safe, and the commands of
 * concurrent workers are pipelined on it.
 *
 * <p>Every command of a running crawl goes through {@link #call} (scripts through {@link #eval}), which rides out a
 * Redis outage for the grace period set by {@link #setOutageGrace} ({@link OutageRetry}) on a connection made again
 * when it drops ({@link SharedConnection}).
 */
public final class RedisCrawl implements AutoCloseable {
  static final String FORMAT = "sievecrawl-shared";
  // 3: filter chunks of 1,023 blocks; 4: the sites in scope also as a log; 5: an exact store may confirm the filter
  // (an agent of version 4 would admit without adding fingerprints to it); 6: page requisites, tasks flagged as such
  // in lanes of their origin (an agent of version 5 cannot decode them)
  static final int VERSION = 6;
  /** Fingerprints per bucket of the exact store at n: Redis keeps a SET of up to 512 integers as a compact intset. */
  static final long FINGERPRINTS_PER_BUCKET = 128;
  private static final int MAX_BUCKET_BITS = 20;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
  /** Connections tried when a handshake ends without the server's answer. */
  private static final int HANDSHAKE_ATTEMPTS = 3;

  private final SharedConnection connection;
  private final Ticker ticker;
  private volatile OutageRetry retry;
  private final String name;
  private final String uri;
  private final String agentId;
  private final Map<String, String> meta;
  private final BloomSizing sizing;
  private final Map<String, String> shas = new ConcurrentHashMap<>();

  private RedisCrawl(RedisLink link, String uri, String name, Map<String, String> meta, Ticker ticker) {
    this.uri = uri;
    this.ticker = ticker;
    this.name = name;
    this.connection = new SharedConnection(link, key(name, "meta"), this::lost);
    this.meta = meta;
    this.sizing = new BloomSizing(n(), p(), BloomSizing.classicalBits(n(), p()), Integer.parseInt(meta.get("k")),
        Long.parseLong(meta.get("blocks")));
    this.agentId = agentName();
    this.retry = outageRetry(Duration.ZERO);
  }

  /**
   * How long commands ride out Redis being unreachable, waiting and retrying, before they fail; zero (until this is
   * called) fails at the first failure. Set before the crawl's frontier opens.
   */
  public void setOutageGrace(Duration grace) {
    retry = outageRetry(grace);
  }

  private OutageRetry outageRetry(Duration grace) {
    return new OutageRetry(uri, "'sievecrawl join --redis " + uri + " --crawl-name " + name + "' continues the crawl"
        + " once it is back", grace, ticker, OutageRetry.monitorPause());
  }

  /** The agent's ticker: its outages, leases and pauses are timed on it (the leases' expiry on Redis's clock). */
  Ticker ticker() {
    return ticker;
  }

  /** This agent is stopping: a command waiting for Redis gives up at once, and so does any after it. */
  public void stopWaiting() {
    retry.stopWaiting();
  }

  OutageRetry outages() {
    return retry;
  }

  /** {@link #startOrJoin(String, String, long, double, boolean, int, String, Clock, Ticker)} without an exact store. */
  public static RedisCrawl startOrJoin(String rawUri, String name, long n, double p, int shards, String settings,
      Clock clock, Ticker ticker) throws SharedCrawlException {
    return startOrJoin(rawUri, name, n, p, false, shards, settings, clock, ticker);
  }

  /**
   * Creates the crawl {@code name}, or joins it if it exists with the same n and p.
   *
   * @param confirm whether a crawl created here keeps an exact store of fingerprints that confirms the filter (a
   *     crawl joined keeps what it was created with)
   * @param clock the wall clock, for the crawl's creation time
   * @param ticker the agent's ticker: the outage grace and the agent's own pauses are timed on it
   * @throws SharedCrawlException if Redis cannot be reached or refuses us, or the crawl exists with another n or p
   */
  public static RedisCrawl startOrJoin(String rawUri, String name, long n, double p, boolean confirm, int shards,
      String settings, Clock clock, Ticker ticker) throws SharedCrawlException {
    checkName(name);
    String uri = shown(rawUri);
    RedisLink link = connect(rawUri);
    try {
      BloomSizing sizing = BloomSizing.of(n, p);
      Map<String, String> fields = new java.util.LinkedHashMap<>();
      fields.put("format", FORMAT);
      fields.put("version", Integer.toString(VERSION));
      fields.put("n", Long.toString(n));
      fields.put("p", Double.toString(p));
      fields.put("seed", Long.toString(BloomFilter.DEFAULT_SEED));
      fields.put("blocks", Long.toString(sizing.blocks()));
      fields.put("k", Integer.toString(sizing.hashCount()));
      fields.put("shards", Integer.toString(shards));
      fields.put("confirm", Boolean.toString(confirm));
      fields.put("bucketBits", Integer.toString(bucketBits(n)));
      fields.put("settings", settings);
      fields.put("created", clock.instant().toString());
      List<byte[]> args = new ArrayList<>();
      fields.forEach((k, v) -> {
        args.add(bytes(k));
        args.add(bytes(v));
      });
      RedisClusterCommands<String, byte[]> redis = link.first().sync();
      String metaKey = key(name, "meta");
      Long created = redis.eval(Scripts.CREATE, ScriptOutputType.INTEGER,
          new String[] {metaKey, key(name, "counters")}, args.toArray(byte[][]::new));
      Map<String, String> meta = readMeta(redis, uri, name);
      if (created == 0 && isFinished(redis, name)) {
        throw new SharedCrawlException(SharedCrawlException.Kind.FINISHED, "the shared crawl '" + name + "' in " + uri
            + " is finished already: choose another --crawl-name, or remove it first with '" + SharedCrawlRemoval.command(uri, name)
            + "'");
      }
      if (Long.parseLong(meta.get("n")) != n || Double.compare(Double.parseDouble(meta.get("p")), p) != 0) {
        throw new SharedCrawlException(SharedCrawlException.Kind.MISMATCH, "the shared crawl '" + name + "' in "
            + uri + " exists with n = " + meta.get("n") + " and p = " + meta.get("p") + "; join it with the same n and"
            + " p (or with 'sievecrawl join'), or choose another --crawl-name");
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
   * Joins the existing crawl {@code name}.
   *
   * @param ticker the agent's ticker: the outage grace and the agent's own pauses are timed on it
   * @throws SharedCrawlException if Redis cannot be reached or refuses us, or there is no such crawl
   */
  public static RedisCrawl join(String rawUri, String name, Ticker ticker) throws SharedCrawlException {
    checkName(name);
    String uri = shown(rawUri);
    RedisLink link = connect(rawUri);
    try {
      Map<String, String> meta = readMeta(link.first().sync(), uri, name);
      return new RedisCrawl(link, uri, name, meta, ticker);
    } catch (RedisException e) {
      link.close();
      throw failure(uri, e);
    } catch (SharedCrawlException | RuntimeException e) {
      link.close();
      throw e;
    }
  }

  /** Whether the crawl has its seeds, admitted URLs and has none open: a crawl that ran to its end. */
  private static boolean isFinished(RedisClusterCommands<String, byte[]> redis, String name) {
    List<io.lettuce.core.KeyValue<String, byte[]>> counters = redis.hmget(key(name, "counters"), "admitted", "open",
        "seeding");
    long admitted = counters.get(0).hasValue() ? Long.parseLong(new String(counters.get(0).getValue(),
        StandardCharsets.US_ASCII)) : 0;
    long open = counters.get(1).hasValue() ? Long.parseLong(new String(counters.get(1).getValue(),
        StandardCharsets.US_ASCII)) : 0;
    return admitted > 0 && open <= 0 && !counters.get(2).hasValue();
  }

  /** Redis's clock in milliseconds: agents' heartbeats are written in it. */
  static long redisMillis(RedisClusterCommands<String, byte[]> redis) {
    List<byte[]> time = redis.time();
    return Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII)) * 1000
        + Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII)) / 1000;
  }

  /**
   * {@code uri} with everything between {@code //} and the last {@code @} (a password, and a user name if any) shown
   * as {@code ***}: what every message and log line shows of it. All of it, because where a user name ends cannot be
   * told from a password holding {@code :} or {@code @}. A password belongs in {@value #PASSWORD_VARIABLE} rather
   * than the URI, which {@code ps} shows too.
   */
  public static String shown(String uri) {
    int scheme = uri.indexOf("://");
    int at = uri.lastIndexOf('@');
    if (scheme < 0 || at < scheme + 3 || !uri.substring(0, scheme).matches("[A-Za-z][A-Za-z0-9+.-]*")) {
      return uri;
    }
    return uri.substring(0, scheme + 3) + "***" + uri.substring(at);
  }

  /** Whether the user information of {@code uri} (between {@code //} and the last {@code @}) is there at all. */
  private static boolean hasUserInfo(String uri) {
    int scheme = uri.indexOf("://");
    return scheme >= 0 && uri.lastIndexOf('@') >= scheme + 3;
  }

  /**
   * Refuses user information that holds a character ending it early ({@code @ / ? #}): the URI would be read with part
   * of the password as the host, the port or the path (and echoed as such).
   *
   * @throws IllegalArgumentException saying so, starting with "the"
   */
  static void checkUserInfo(String rawUri) {
    int scheme = rawUri.indexOf("://");
    int at = rawUri.lastIndexOf('@');
    if (scheme >= 0 && at >= scheme + 3 && rawUri.substring(scheme + 3, at).matches(".*[@/?#].*")) {
      throw new IllegalArgumentException("the password (or user name) holds '@', '/', '?' or '#': percent-encode"
          + " them (%40, %2F, %3F, %23), or give the password in " + PASSWORD_VARIABLE);
    }
  }

  /** The environment variable a Redis password may come from when the URI holds none. */
  public static final String PASSWORD_VARIABLE = "SIEVECRAWL_REDIS_PASSWORD";

  /**
   * Connects to the Redis {@code rawUri} names: one server, or a Redis Cluster through one or more of its nodes
   * ({@code redis://HOST1:PORT1,HOST2:PORT2}), told apart by asking the first node that answers ({@link RedisLink}).
   */
  static RedisLink connect(String rawUri) throws SharedCrawlException {
    String uri = shown(rawUri);
    List<RedisURI> seeds;
    try {
      checkUserInfo(rawUri);
      checkHostAndPort(rawUri);
      seeds = rawUri.contains(",") ? RedisClusterURIUtil.toRedisURIs(java.net.URI.create(rawUri))
          : List.of(RedisURI.create(rawUri));
    } catch (IllegalArgumentException e) {
      throw notAUri(uri, e);
    }
    String password = System.getenv(PASSWORD_VARIABLE);
    for (RedisURI seed : seeds) {
      if (!hasUserInfo(rawUri) && password != null && !password.isEmpty()) {
        seed.setAuthentication(password.toCharArray()); // the URI names none: the environment's
      }
      seed.setTimeout(COMMAND_TIMEOUT);
    }
    for (int attempt = 1; ; attempt++) {
      try {
        return RedisLink.open(seeds, COMMAND_TIMEOUT);
      } catch (IllegalArgumentException e) {
        throw notAUri(uri, e);
      } catch (RedisException e) {
        // Lettuce closes the connection when its handshake fails (a wrong password, say), and now and then reports
        // that close instead of the server's answer; asking again gets the answer.
        if (attempt < HANDSHAKE_ATTEMPTS && rootMessage(e).contains("closed prematurely")) {
          continue;
        }
        throw failure(uri, e);
      }
    }
  }

  private static SharedCrawlException notAUri(String uri, IllegalArgumentException e) {
    return new SharedCrawlException(SharedCrawlException.Kind.UNREACHABLE, "not a Redis URI: '" + uri + "'"
        + (e.getMessage() != null && e.getMessage().startsWith("the ") ? ": " + e.getMessage() : "")
        + " (expected redis://[:PASSWORD@]HOST:PORT[/DB], or redis://HOST1:PORT1,HOST2:PORT2 for nodes of a Redis"
        + " Cluster, the password percent-encoded, or rediss:// for TLS)");
  }

  private static Map<String, String> readMeta(RedisClusterCommands<String, byte[]> redis, String uri, String name)
      throws SharedCrawlException {
    return readMeta(redis, uri, name, true);
  }

  /** The crawl's meta hash; {@code thisVersion}: refused unless this build's version of the format. */
  static Map<String, String> readMeta(RedisClusterCommands<String, byte[]> redis, String uri, String name,
      boolean thisVersion) throws SharedCrawlException {
    Map<String, byte[]> raw = redis.hgetall(key(name, "meta"));
    if (raw == null || raw.isEmpty()) {
      throw new SharedCrawlException(SharedCrawlException.Kind.NO_SUCH_CRAWL, "no shared crawl named '" + name
          + "' in " + uri + "; start one with 'sievecrawl crawl SEEDS --redis " + uri + " --crawl-name " + name + "'");
    }
    Map<String, String> meta = new HashMap<>();
    raw.forEach((k, v) -> meta.put(k, new String(v, StandardCharsets.UTF_8)));
    if (!FORMAT.equals(meta.get("format"))) {
      throw new SharedCrawlException(SharedCrawlException.Kind.MISMATCH, key(name, "meta") + " in " + uri
          + " is not a sievecrawl crawl");
    }
    if (thisVersion && !Integer.toString(VERSION).equals(meta.get("version"))) {
      throw new SharedCrawlException(SharedCrawlException.Kind.MISMATCH, "the shared crawl '" + name + "' has format"
          + " version " + meta.get("version") + ", but this build reads version " + VERSION);
    }
    return meta;
  }

  /**
   * Refuses a host or port Lettuce would read wrongly: it takes {@code HOST:abc} for a host name of that spelling
   * (and reports a failed DNS query for it).
   *
   * @throws IllegalArgumentException saying what is wrong, starting with "the"
   */
  static void checkHostAndPort(String rawUri) {
    java.net.URI parsed;
    try {
      parsed = new java.net.URI(rawUri);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException(e.getReason());
    }
    String scheme = parsed.getScheme();
    if (scheme == null || !(scheme.equalsIgnoreCase("redis") || scheme.equalsIgnoreCase("rediss"))) {
      return; // another form (a Unix socket, a Sentinel list): Lettuce's own parser decides
    }
    String authority = parsed.getRawAuthority();
    String hosts = authority == null ? "" : authority.substring(authority.lastIndexOf('@') + 1);
    for (String hostPort : hosts.split(",", -1)) { // several nodes of a cluster: HOST1:PORT1,HOST2:PORT2
      int colon = hostPort.lastIndexOf(':');
      if (colon > hostPort.lastIndexOf(']')) {
        String port = hostPort.substring(colon + 1);
        if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
          throw new IllegalArgumentException("the port '" + port + "' is not a number from 1 to 65535");
        }
        hostPort = hostPort.substring(0, colon);
      }
      if (hostPort.isEmpty()) {
        throw new IllegalArgumentException("the host is missing");
      }
    }
  }

  /** A one-line reason for a Redis failure: unreachable, refused credentials, or something else. */
  public static SharedCrawlException failure(String uri, RedisException e) {
    String message = rootMessage(e);
    if (message.contains("WRONGPASS") || message.contains("NOAUTH") || message.contains("invalid password")) {
      return new SharedCrawlException(SharedCrawlException.Kind.REFUSED, "Redis at " + uri + " refused us: "
          + message + " (give the password in " + PASSWORD_VARIABLE + ", or in the URI percent-encoded:"
          + " redis://:PASSWORD@HOST:PORT)");
    }
    if (message.startsWith("OOM ")) {
      return new SharedCrawlException(SharedCrawlException.Kind.UNREACHABLE, "Redis at " + uri + " is out of memory"
          + " (" + message.replaceFirst("\\. script: .*", "") + "): raise its maxmemory or free memory, then continue"
          + " the crawl with 'sievecrawl join'");
    }
    if (e instanceof RedisConnectionException) {
      if (message.contains("NXDOMAIN") || hasCause(e, java.net.UnknownHostException.class)) {
        message = "unknown host (" + message + ")";
      }
      return new SharedCrawlException(SharedCrawlException.Kind.UNREACHABLE, "cannot reach Redis at " + uri + ": "
          + message);
    }
    return new SharedCrawlException(SharedCrawlException.Kind.UNREACHABLE, "Redis at " + uri + " failed: " + message);
  }

  private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    return message.replaceAll("\\s+", " ").strip();
  }

  static void checkName(String name) throws SharedCrawlException {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new SharedCrawlException(SharedCrawlException.Kind.NO_SUCH_CRAWL, "a crawl name is 1 to 100 letters,"
          + " digits, dots, dashes or underscores, not '" + name + "'");
    }
  }

  static String key(String name, String suffix) {
    return "sievecrawl:{" + name + "}:" + suffix;
  }

  String key(String suffix) {
    return key(name, suffix);
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

  /**
   * Runs {@code command} on the shared connection, riding out an outage: while Redis cannot answer, it is sent again
   * after a pause until the grace period runs out. Only a command whose second run is safe after a first one whose
   * reply was lost may come here. A Redis failure becomes a {@link FrontierFailure} naming the cause.
   */
  <R> R call(Function<RedisClusterCommands<String, byte[]>, R> command) {
    try {
      return retry.call(() -> {
        RedisLink.Connection used = connection.live();
        try {
          return command.apply(used.sync());
        } catch (RedisException e) {
          if (OutageRetry.isOutage(e) && !(e instanceof RedisLoadingException)) {
            connection.dropped(used); // Redis loading its data answers on the same connection
          }
          throw e;
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
   * Runs a script by its SHA (loading it the first time) through {@link #call}; a reply {@link Scripts#LOST} or a
   * Redis failure becomes a {@link FrontierFailure} naming the cause.
   */
  <R> R eval(String script, ScriptOutputType type, String[] keys, byte[]... args) {
    return call(redis -> {
      String sha = shas.computeIfAbsent(script, redis::scriptLoad);
      try {
        return redis.evalsha(sha, type, keys, args);
      } catch (RedisCommandExecutionException e) {
        if (String.valueOf(e.getMessage()).startsWith("NOSCRIPT")) { // Redis restarted and forgot the script
          shas.remove(script);
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
  FrontierFailure asFailure(RedisException e) {
    if (String.valueOf(rootMessage(e)).contains(Scripts.LOST)) {
      return lost();
    }
    SharedCrawlException cause = failure(uri, e);
    return new FrontierFailure(cause.getMessage(), cause);
  }

  String lostMessage() {
    return "the shared crawl '" + name + "' vanished from Redis at " + uri + " (restarted without persistence, or"
        + " flushed); its frontier is gone: run Redis with appendonly yes";
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
    return Long.parseLong(meta.get("n"));
  }

  public double p() {
    return Double.parseDouble(meta.get("p"));
  }

  public int shards() {
    return Integer.parseInt(meta.get("shards"));
  }

  /** Whether an exact store of fingerprints, in Redis beside the filter, confirms its "maybe seen" answers. */
  public boolean confirmed() {
    return Boolean.parseBoolean(meta.getOrDefault("confirm", "false"));
  }

  /** The exact store's bucket for {@code fingerprint}: its top bits, so that a bucket holds about 128 at n. */
  String bucketKey(long fingerprint) {
    int bits = Integer.parseInt(meta.getOrDefault("bucketBits", "0"));
    return key("x:" + (bits == 0 ? 0 : fingerprint >>> (Long.SIZE - bits)));
  }

  /** log2 of the bucket count: the largest power of two that leaves at least 128 fingerprints per bucket at n. */
  static int bucketBits(long n) {
    long buckets = Math.max(1, n / FINGERPRINTS_PER_BUCKET);
    return Math.min(MAX_BUCKET_BITS, Long.SIZE - 1 - Long.numberOfLeadingZeros(buckets));
  }

  long seed() {
    return Long.parseLong(meta.get("seed"));
  }

  BloomSizing sizing() {
    return sizing;
  }

  /** The settings the crawl was started with, as a config file. */
  public String settings() {
    return meta.getOrDefault("settings", "");
  }

  @Override
  public void close() {
    connection.close();
  }
}

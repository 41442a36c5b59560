package io.sievecrawl.sieve.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterURIUtil;
import java.time.Duration;
import java.util.List;

/**
 * The Redis a URI names, as the user wrote it: checked before Lettuce reads it, shown without its password, and
 * connected to, one server or the nodes of a Redis Cluster.
 */
final class RedisAddress {
  /** The environment variable a Redis password may come from when the URI holds none. */
  static final String PASSWORD_VARIABLE = "SIEVECRAWL_REDIS_PASSWORD";
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
  /** Connections tried when a handshake ends without the server's answer. */
  private static final int HANDSHAKE_ATTEMPTS = 3;

  private RedisAddress() {}

  /**
   * {@code uri} with everything between {@code //} and the last {@code @} (a password, and a user name if any) shown
   * as {@code ***}: what every message and log line shows of it. All of it, because where a user name ends cannot be
   * told from a password holding {@code :} or {@code @}. A password belongs in {@value #PASSWORD_VARIABLE} rather
   * than the URI, which {@code ps} shows too.
   */
  static String shown(String uri) {
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
        if (attempt < HANDSHAKE_ATTEMPTS && RedisFailures.rootMessage(e).contains("closed prematurely")) {
          continue;
        }
        throw RedisFailures.failure(uri, e);
      }
    }
  }

  private static SharedCrawlException notAUri(String uri, IllegalArgumentException e) {
    return new SharedCrawlException(SharedCrawlException.Kind.UNREACHABLE, "not a Redis URI: '" + uri + "'"
        + (e.getMessage() != null && e.getMessage().startsWith("the ") ? ": " + e.getMessage() : "")
        + " (expected redis://[:PASSWORD@]HOST:PORT[/DB], or redis://HOST1:PORT1,HOST2:PORT2 for nodes of a Redis"
        + " Cluster, the password percent-encoded, or rediss:// for TLS)");
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
}

package io.sievecrawl.sieve.redis;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;

/** A Redis failure told in one line: unreachable, refused credentials, out of memory, or something else. */
final class RedisFailures {
  private RedisFailures() {}

  /** A one-line reason for a Redis failure, naming {@code uri} (as shown) and what to do where that is known. */
  static SharedCrawlException failure(String uri, RedisException e) {
    String message = rootMessage(e);
    if (message.contains("WRONGPASS") || message.contains("NOAUTH") || message.contains("invalid password")) {
      return new SharedCrawlException(SharedCrawlException.Kind.REFUSED, "Redis at " + uri + " refused us: "
          + message + " (give the password in " + RedisAddress.PASSWORD_VARIABLE + ", or in the URI percent-encoded:"
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

  /** Whether {@code e} or one of its causes is a {@code type}. */
  static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  /** The message of the innermost cause (its class's name if it has none), on one line. */
  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    return message.replaceAll("\\s+", " ").strip();
  }
}

package io.sievecrawl.sieve.jmh;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/** What a Redis node says of itself (INFO), for the reports that measure a shared crawl. */
final class RedisInfo {
  private RedisInfo() {}

  /** The node's own CPU time so far (user and system), from INFO cpu. */
  static double cpuSeconds(String uri) {
    try (RedisClient client = RedisClient.create(uri);
        StatefulRedisConnection<String, String> connection = client.connect()) {
      double seconds = 0;
      for (String line : connection.sync().info("cpu").split("\r?\n")) {
        if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
          seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
        }
      }
      return seconds;
    }
  }
}

package io.sievecrawl.sieve.jmh;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

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

  /** Each command's calls and microseconds so far (INFO commandstats), summed over the nodes. */
  static Map<String, long[]> commandStats(List<String> uris) {
    Map<String, long[]> stats = new TreeMap<>();
    for (String uri : uris) {
      try (RedisClient client = RedisClient.create(uri);
          StatefulRedisConnection<String, String> connection = client.connect()) {
        for (String line : connection.sync().info("commandstats").split("\r?\n")) {
          if (line.startsWith("cmdstat_")) { // cmdstat_NAME:calls=C,usec=U,...
            long[] sum = stats.computeIfAbsent(line.substring(8, line.indexOf(':')), k -> new long[2]);
            sum[0] += field(line, "calls=");
            sum[1] += field(line, "usec=");
          }
        }
      }
    }
    return stats;
  }

  private static long field(String line, String name) {
    int from = line.indexOf(name) + name.length();
    int to = line.indexOf(',', from);
    return Long.parseLong(line.substring(from, to < 0 ? line.length() : to));
  }

  /** Prints each command's calls and Redis microseconds per page between two readings of {@link #commandStats}. */
  static void printPerPage(Map<String, long[]> before, Map<String, long[]> after, long pages) {
    after.forEach((command, now) -> {
      long[] then = before.getOrDefault(command, new long[2]);
      long calls = now[0] - then[0];
      if (calls > 0) {
        System.out.printf(Locale.ROOT, "        %-16s %8.3f calls, %8.2f us per page%n", command,
            (double) calls / pages, (double) (now[1] - then[1]) / pages);
      }
    });
  }
}

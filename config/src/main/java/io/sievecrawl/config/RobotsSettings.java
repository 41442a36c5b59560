package io.sievecrawl.config;

import java.time.Duration;
import java.util.Locale;

/**
 * robots.txt and sitemaps: the {@code robots.*} keys.
 *
 * @param obey whether each host's robots.txt is fetched and obeyed ({@code robots.obey})
 * @param followSitemaps whether the sitemaps robots.txt lists and pages link are followed
 *     ({@code robots.follow-sitemaps})
 * @param cacheMemory bytes of parsed robots.txt rules kept ({@code robots.cache-memory})
 * @param agentName the product token matched against robots.txt User-agent lines and robots meta tags, lower-cased:
 *     {@code robots.agent-name}, or when that is empty the one {@link #agentNameOf} takes from
 *     {@code fetch.user-agent}
 * @param retryAfter how long a host whose robots.txt could not be had rests ({@code robots.retry-after})
 */
public record RobotsSettings(boolean obey, boolean followSitemaps, long cacheMemory, String agentName,
    Duration retryAfter) {

  static RobotsSettings from(CrawlSettings s) {
    return new RobotsSettings(s.get(Setting.OBEY_ROBOTS), s.get(Setting.FOLLOW_SITEMAPS),
        s.get(Setting.ROBOTS_CACHE_MEMORY), agentNameOf(s.get(Setting.ROBOTS_AGENT), s.get(Setting.USER_AGENT)),
        s.get(Setting.ROBOTS_RETRY));
  }

  /**
   * The product token robots.txt groups are matched against: {@code configured} lower-cased, or when it is empty the
   * first product token of {@code userAgent} that names a crawler (not Mozilla or compatible), else sievecrawl.
   */
  static String agentNameOf(String configured, String userAgent) {
    if (!configured.isEmpty()) {
      return configured.toLowerCase(Locale.ROOT);
    }
    for (String word : userAgent.split("[\\s;()]+")) {
      String token = word.split("/", 2)[0];
      String lower = token.toLowerCase(Locale.ROOT);
      if (token.matches("[A-Za-z_-]+") && !lower.equals("mozilla") && !lower.equals("compatible")) {
        return lower;
      }
    }
    return "sievecrawl";
  }
}

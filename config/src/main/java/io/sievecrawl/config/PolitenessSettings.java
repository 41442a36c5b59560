package io.sievecrawl.config;

import java.time.Duration;

/**
 * How gently the crawl treats each origin: the {@code politeness.*} keys.
 *
 * @param delay least time between the starts of two requests to one origin ({@code politeness.delay})
 * @param adaptive whether each origin's delay follows its response times ({@code politeness.adaptive})
 * @param responseTimeFactor the adaptive delay in last response times ({@code politeness.response-time-factor})
 * @param maxDelay ceiling of the adaptive delay and of back-off ({@code politeness.max-delay})
 * @param hostConcurrency requests in flight at once to one origin ({@code politeness.host-concurrency})
 * @param maxCrawlDelay the longest robots.txt Crawl-delay honoured ({@code politeness.max-crawl-delay})
 * @param honorNofollow whether nofollow links are skipped ({@code politeness.honor-nofollow})
 */
public record PolitenessSettings(Duration delay, boolean adaptive, int responseTimeFactor, Duration maxDelay,
    int hostConcurrency, Duration maxCrawlDelay, boolean honorNofollow) {

  static PolitenessSettings from(CrawlSettings s) {
    return new PolitenessSettings(s.get(Setting.DELAY), s.get(Setting.ADAPTIVE), s.get(Setting.RESPONSE_TIME_FACTOR),
        s.get(Setting.MAX_DELAY), s.get(Setting.HOST_CONCURRENCY), s.get(Setting.MAX_CRAWL_DELAY),
        s.get(Setting.HONOR_NOFOLLOW));
  }
}

package io.sievecrawl.config;

import java.time.Duration;

/**
 * How the frontier keeps its state, on disk or shared through Redis: the {@code frontier.*} keys.
 *
 * @param syncInterval how often the frontier log and the results file are forced to disk
 *     ({@code frontier.sync-interval})
 * @param checkpointInterval how often the URL filter is written to the crawl directory
 *     ({@code frontier.checkpoint-interval})
 * @param leaseTtl how long a shared crawl's agent that stopped renewing its lease keeps its origins
 *     ({@code frontier.lease-ttl})
 * @param redisOutageGrace how long an agent of a shared crawl rides out Redis being unreachable
 *     ({@code frontier.redis-outage-grace})
 */
public record FrontierSettings(Duration syncInterval, Duration checkpointInterval, Duration leaseTtl,
    Duration redisOutageGrace) {

  static FrontierSettings from(CrawlSettings s) {
    return new FrontierSettings(s.get(Setting.FRONTIER_SYNC_INTERVAL), s.get(Setting.FRONTIER_CHECKPOINT_INTERVAL),
        s.get(Setting.LEASE_TTL), s.get(Setting.REDIS_OUTAGE_GRACE));
  }
}

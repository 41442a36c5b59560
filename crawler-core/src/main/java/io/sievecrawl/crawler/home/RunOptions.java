package io.sievecrawl.crawler.home;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.sieve.Ticker;
import java.util.Objects;

/**
 * What a run opens its home's frontier with.
 *
 * @param settings the run's settings (frontier timers, filter growth, Redis lease and outage times)
 * @param capacityHint what the filter's capacity warning tells the user to raise, e.g. {@code filter.n (-n)}
 * @param ticker the crawl's ticker, for the frontier's own timing
 */
public record RunOptions(CrawlSettings settings, String capacityHint, Ticker ticker) {
  public RunOptions {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(capacityHint, "capacityHint");
    Objects.requireNonNull(ticker, "ticker");
  }
}

package io.sievecrawl.app;

import io.sievecrawl.config.PolitenessSettings;
import io.sievecrawl.config.Values;

/**
 * The one line a crawl starts with about its pace, so that a first crawl of someone's site, at one page a second,
 * says why before anyone wonders: requests at a time per site, how far apart, and how to go faster on one's own
 * servers.
 */
final class PaceLine {
  private PaceLine() {}

  static String of(PolitenessSettings p) {
    String perSite = p.hostConcurrency() == 1 ? "1 request at a time per site"
        : p.hostConcurrency() + " requests at a time per site";
    String apart = p.delay().isZero() ? "no delay" : Values.formatDuration(p.delay()) + " apart";
    if (p.adaptive()) {
      apart += " or more, as each server answers";
    }
    String faster = ((p.delay().isZero() ? "" : " --delay 0ms") + (p.hostConcurrency() >= 4 ? ""
        : " --host-concurrency 8")).strip(); // only the flags that would change something
    return (p.delay().isZero() ? "pace: " : "polite: ") + perSite + ", " + apart
        + (faster.isEmpty() ? "" : "; " + faster + " for your own servers");
  }
}

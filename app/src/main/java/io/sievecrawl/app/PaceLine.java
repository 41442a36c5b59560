package io.sievecrawl.app;

import io.sievecrawl.config.PolitenessSettings;
import io.sievecrawl.config.Values;

/**
 * The one line a crawl starts with about its pace, so that a first crawl of someone's site, at one page a second,
 * says why before anyone wonders: requests at a time per site, how far apart, and how to go faster on one's own
 * servers.
 */
final class PaceLine {
  /** The flags that lift politeness, for a server of one's own. */
  static final String FAST_FLAGS = "--delay 0ms --host-concurrency 8";

  private PaceLine() {}

  static String of(PolitenessSettings p) {
    String perSite = p.hostConcurrency() == 1 ? "1 request at a time per site"
        : p.hostConcurrency() + " requests at a time per site";
    String apart = p.delay().isZero() ? "no delay" : Values.formatDuration(p.delay()) + " apart";
    if (p.adaptive()) {
      apart += " or more, as each server answers";
    }
    boolean polite = !p.delay().isZero() || p.hostConcurrency() < 4;
    return polite ? "polite: " + perSite + ", " + apart + "; " + FAST_FLAGS + " for your own servers"
        : "pace: " + perSite + ", " + apart;
  }
}

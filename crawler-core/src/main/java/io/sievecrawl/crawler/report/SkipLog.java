package io.sievecrawl.crawler.report;

/**
 * Hears of every URL the crawl leaves out, with why: out of scope, a spider trap, the depth limit, already seen
 * (or a false positive of the filter), robots.txt, an origin's budget. For users who want to see what was left out;
 * {@link #NONE} by default. Called by many workers at once: implementations are thread-safe.
 */
@FunctionalInterface
public interface SkipLog {
  SkipLog NONE = (url, referrer, depth, reason) -> { };

  /** @param reason why, one of the first group of {@link SkipReason} (out of scope, too long, seen, robots, ...) */
  void skipped(String url, String referrer, int depth, SkipReason reason);
}

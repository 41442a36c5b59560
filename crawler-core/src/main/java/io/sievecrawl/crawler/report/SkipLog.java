package io.sievecrawl.crawler.report;

/**
 * Hears of every URL the crawl leaves out, with why: out of scope, a spider trap, the depth limit, already seen
 * (or a false positive of the filter), robots.txt, an origin's budget. For users who want to see what was left out;
 * {@link #NONE} by default. Called by many workers at once: implementations are thread-safe.
 */
@FunctionalInterface
public interface SkipLog {
  SkipLog NONE = (url, referrer, depth, reason) -> { };

  /**
   * @param reason {@code out-of-scope-host}, {@code out-of-scope-private}, {@code out-of-scope-pattern},
   *     {@code out-of-scope-depth}, {@code out-of-scope-trap}, {@code too-long}, {@code seen}, {@code robots},
   *     {@code robots-unavailable}, {@code origin-unreachable}, {@code host-budget}
   */
  void skipped(String url, String referrer, int depth, String reason);
}

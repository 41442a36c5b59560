package io.sievecrawl.crawler;

import io.sievecrawl.sieve.CountMinSketch;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a crawl carries from one run to the next besides its frontier: the totals so far, the sites in scope (the
 * seeds' and those brought in by seed redirects), and the per-origin page counts behind
 * {@code crawl.max-pages-per-host}.
 *
 * @param totals counters of the runs so far
 * @param scopeSites sites (host, or host:port off the default ports) that count as the seeds' for {@code crawl.scope}
 * @param pagesPerOrigin fetches per origin, in fixed memory; over-estimates only, so a budget is never exceeded
 */
public record CrawlState(CrawlTotals totals, Set<String> scopeSites, CountMinSketch pagesPerOrigin) {
  public CrawlState {
    Objects.requireNonNull(totals, "totals");
    scopeSites = Collections.unmodifiableSet(new TreeSet<>(scopeSites));
    Objects.requireNonNull(pagesPerOrigin, "pagesPerOrigin");
  }

  /** The state of a crawl that has not run yet. */
  public static CrawlState fresh() {
    return new CrawlState(CrawlTotals.NONE, Set.of(), CountMinSketch.create(CountMinSketch.DEFAULT_WIDTH, CountMinSketch.DEFAULT_DEPTH));
  }
}

package io.sievecrawl.crawler;

import io.sievecrawl.crawler.report.CrawlTotals;
import io.sievecrawl.sieve.CountMinSketch;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import okhttp3.Cookie;

/**
 * What a crawl carries from one run to the next besides its frontier: the totals so far, the sites in scope (the
 * seeds' and those brought in by seed redirects), and the per-origin page counts behind
 * {@code crawl.max-pages-per-host}, and the cookies sites set.
 *
 * @param totals counters of the runs so far
 * @param scopeSites sites (host, or host:port off the default ports) that count as the seeds' for {@code crawl.scope}
 * @param pagesPerOrigin fetches per origin, in fixed memory; over-estimates only, so a budget is never exceeded
 * @param cookies the cookies kept (fetch.cookies), so a resumed crawl still sends a site the session it was given
 */
public record CrawlState(CrawlTotals totals, Set<String> scopeSites, CountMinSketch pagesPerOrigin,
    List<Cookie> cookies) {
  public CrawlState {
    Objects.requireNonNull(totals, "totals");
    scopeSites = Collections.unmodifiableSet(new TreeSet<>(scopeSites));
    Objects.requireNonNull(pagesPerOrigin, "pagesPerOrigin");
    cookies = List.copyOf(cookies);
  }

  /** The state of a crawl that has not run yet. */
  public static CrawlState fresh() {
    return new CrawlState(CrawlTotals.NONE, Set.of(),
        CountMinSketch.create(CountMinSketch.DEFAULT_WIDTH, CountMinSketch.DEFAULT_DEPTH), List.of());
  }
}

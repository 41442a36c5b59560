package io.sievecrawl.config;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How much a crawl fetches, how fast, and which links it follows: the {@code crawl.*} keys.
 *
 * @param concurrency fetches in flight at once, over all hosts ({@code crawl.concurrency})
 * @param maxPages fetches after which the crawl stops, 0 for no limit ({@code crawl.max-pages})
 * @param maxTime how long a run of the crawl may last, zero for no limit ({@code crawl.max-time})
 * @param maxDepth link hops from a seed ({@code crawl.max-depth})
 * @param maxPagesPerHost URLs fetched from one host, 0 for no limit ({@code crawl.max-pages-per-host})
 * @param allowPrivateAddresses whether links may lead to loopback, private and link-local addresses
 *     ({@code crawl.allow-private-addresses})
 * @param maxLinksPerPage distinct links followed of one page ({@code crawl.max-links-per-page})
 * @param scope which hosts links are followed to ({@code crawl.scope})
 * @param include patterns one of which a URL must match, when any are given ({@code crawl.include})
 * @param exclude patterns no URL fetched may match ({@code crawl.exclude})
 */
public record CrawlLimits(int concurrency, long maxPages, Duration maxTime, int maxDepth, long maxPagesPerHost,
    boolean allowPrivateAddresses, int maxLinksPerPage, Scope scope, List<Pattern> include, List<Pattern> exclude) {

  public CrawlLimits {
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
  }

  static CrawlLimits from(CrawlSettings s) {
    return new CrawlLimits(s.get(Setting.CONCURRENCY), s.get(Setting.MAX_PAGES), s.get(Setting.MAX_TIME),
        s.get(Setting.MAX_DEPTH), s.get(Setting.MAX_PAGES_PER_HOST), s.get(Setting.ALLOW_PRIVATE_ADDRESSES),
        s.get(Setting.MAX_LINKS_PER_PAGE), s.get(Setting.SCOPE), s.get(Setting.INCLUDE), s.get(Setting.EXCLUDE));
  }
}

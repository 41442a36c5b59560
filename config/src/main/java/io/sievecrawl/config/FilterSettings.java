package io.sievecrawl.config;

/**
 * The URL filter's sizing and its exact layer: the keys {@code filter.n}, {@code filter.p} 
 * {@code filter.confirm} and {@code filter.grow}.
 *
 * @param expectedUrls the distinct URLs the crawl is expected to discover ({@code filter.n})
 * @param falsePositiveRate the chance, at {@code expectedUrls} URLs, that a new URL is taken for one seen
 *     ({@code filter.p})
 * @param confirm whether an exact store settles the filter's "maybe seen" answers ({@code filter.confirm})
 * @param grow whether a confirmed filter past its n is rebuilt larger from the store while the crawl goes on
 *     ({@code filter.grow})
 */
public record FilterSettings(long expectedUrls, double falsePositiveRate, boolean confirm, boolean grow) {

  static FilterSettings from(CrawlSettings s) {
    return new FilterSettings(s.get(Setting.FILTER_N), s.get(Setting.FILTER_P), s.get(Setting.FILTER_CONFIRM),
        s.get(Setting.FILTER_GROW));
  }
}

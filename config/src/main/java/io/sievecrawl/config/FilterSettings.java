package io.sievecrawl.config;

/**
 * The URL filter's sizing: the keys {@code filter.n} and {@code filter.p}.
 *
 * @param expectedUrls the distinct URLs the crawl is expected to discover ({@code filter.n})
 * @param falsePositiveRate the chance, at {@code expectedUrls} URLs, that a new URL is taken for one seen
 *     ({@code filter.p})
 */
public record FilterSettings(long expectedUrls, double falsePositiveRate) {

  static FilterSettings from(CrawlSettings s) {
    return new FilterSettings(s.get(Setting.FILTER_N), s.get(Setting.FILTER_P));
  }
}

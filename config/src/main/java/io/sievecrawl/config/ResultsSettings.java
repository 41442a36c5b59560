package io.sievecrawl.config;

/**
 * What each page's record in the results file carries: the {@code results.*} keys.
 *
 * @param recordText whether HTML pages' records carry their visible text ({@code results.text})
 * @param recordLinks whether pages' records carry the links found and why each was not followed
 *     ({@code results.links})
 */
public record ResultsSettings(boolean recordText, boolean recordLinks) {

  static ResultsSettings from(CrawlSettings s) {
    return new ResultsSettings(s.get(Setting.RESULTS_TEXT), s.get(Setting.RESULTS_LINKS));
  }
}

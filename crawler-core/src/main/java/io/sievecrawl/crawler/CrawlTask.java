package io.sievecrawl.crawler;

/**
 * A URL waiting to be fetched, with how it was found.
 *
 * @param url the normalized URL
 * @param depth link hops from a seed (0 for a seed; a redirect keeps the depth of the URL that redirected)
 * @param referrer the page that linked to or redirected to it, {@code null} for a seed
 * @param redirectHops redirects followed to reach it from the last linked URL
 * @param attempt fetches of it tried so far (retries after errors)
 */
record CrawlTask(String url, int depth, String referrer, int redirectHops, int attempt) {

  static CrawlTask seed(String url) {
    return new CrawlTask(url, 0, null, 0, 0);
  }

  CrawlTask link(String target) {
    return new CrawlTask(target, depth + 1, url, 0, 0);
  }

  CrawlTask redirect(String target) {
    return new CrawlTask(target, depth, url, redirectHops + 1, 0);
  }

  CrawlTask retry() {
    return new CrawlTask(url, depth, referrer, redirectHops, attempt + 1);
  }
}

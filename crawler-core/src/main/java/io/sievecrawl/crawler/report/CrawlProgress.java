package io.sievecrawl.crawler.report;

/**
 * A live snapshot of a running crawl, for a progress line.
 *
 * @param fetched URLs fetched so far, earlier runs of the crawl included
 * @param queued URLs admitted and waiting
 * @param inFlight fetches under way
 * @param errors fetches of this run that ended in an error
 * @param bytes body bytes read in this run
 * @param filterFill fraction of the URL filter's bits set
 * @param currentFpp the URL filter's false-positive rate now
 * @param origins where the origins with waiting URLs stand
 */
public record CrawlProgress(long fetched, long queued, long inFlight, long errors, long bytes, double filterFill,
    double currentFpp, Origins origins) {

  /**
   * @param due origins that may start a request now (at the scheduler's hand or waiting in the frontier's line)
   * @param onDelay origins waiting out their politeness delay or robots.txt Crawl-delay
   * @param paused origins paused (429, 503, Retry-After, robots.txt awaited or unreachable) or backing off
   * @param givenUp origins given up (robots.txt unreachable)
   * @param pacedByDelay whether the politeness delay is what holds the crawl back: workers are free, no origin is
   *     due, and some wait out their delay
   */
  public record Origins(long due, long onDelay, long paused, long givenUp, boolean pacedByDelay) {}
}

package io.sievecrawl.crawler;

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
 * @param pausedOrigins origins with waiting URLs that may not start for a while (a delay, a pause, a Crawl-delay)
 */
public record CrawlProgress(long fetched, long queued, long inFlight, long errors, long bytes, double filterFill,
    double currentFpp, int pausedOrigins) {}

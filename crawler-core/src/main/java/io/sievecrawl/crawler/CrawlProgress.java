package io.sievecrawl.crawler;

/**
 * A live snapshot of a running crawl, for a progress line.
 *
 * @param fetched URLs fetched so far
 * @param queued URLs admitted and waiting
 * @param inFlight fetches under way
 * @param errors fetches that ended in an error
 * @param bytes body bytes read
 * @param filterFill fraction of the URL filter's bits set
 * @param currentFpp the URL filter's false-positive rate now
 */
public record CrawlProgress(long fetched, long queued, long inFlight, long errors, long bytes, double filterFill,
    double currentFpp) {}

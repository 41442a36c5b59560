/**
 * What a crawl tells of itself: counted while it runs, summed when a run ends, carried over its runs.
 *
 * <p>Workers add to {@link io.sievecrawl.crawler.report.CrawlStats} (the run's counters) and
 * {@link io.sievecrawl.crawler.report.OriginStats} (per origin, the most recently active 10,000, as
 * {@link io.sievecrawl.crawler.report.OriginRow}s), and tell a {@link io.sievecrawl.crawler.report.SkipLog} of every
 * URL they leave out, with its {@link io.sievecrawl.crawler.report.SkipReason} (whose wire name the outputs use). A
 * running crawl answers with a {@link io.sievecrawl.crawler.report.CrawlProgress} for the progress line; a run ends
 * with a {@link io.sievecrawl.crawler.report.CrawlSummary}, whose {@link io.sievecrawl.crawler.report.CrawlTotals} sum every
 * run of the crawl (a crawl's home keeps them between runs).
 */
package io.sievecrawl.crawler.report;

/**
 * The crawler: fetcher workers on virtual threads that take URLs from the sieve, fetch them politely, follow
 * links and redirects, and report one result per fetched URL.
 *
 * <p>Start with {@link io.sievecrawl.crawler.Crawler}, built by a {@link io.sievecrawl.crawler.CrawlerBuilder}. Its
 * workers take leases from the scheduler and run each through the crawl's {@link
 * io.sievecrawl.crawler.lease.LeasePipeline} ({@code lease}: the steps, the {@code Outcome}, the closer). This
 * package holds the engine: the crawler and its builder, {@link io.sievecrawl.crawler.CrawlControl} (whether the crawl
 * goes on), the seeds ({@code Seeds}, {@code SeedQueue}), the task a URL travels as ({@link
 * io.sievecrawl.crawler.CrawlTask}, with its {@code LastVisit}), and what a crawl keeps between runs ({@code
 * CrawlState}, {@code VisitLog}). The pieces live in sub-packages:
 * {@code lease} (the lease pipeline), {@code url} (normalization), {@code fetch} (OkHttp), {@code html} (jsoup
 * links), {@code robots} (robots.txt), {@code schedule} (per-host politeness), {@code scope} (which URLs belong to
 * the crawl), {@code report} (counters, the summary, the skip log), {@code result} (records and their JSON Lines
 * form), {@code home} (where a crawl lives), {@code job} (the crawl directory) and {@code warc} (archives).
 */
package io.sievecrawl.crawler;

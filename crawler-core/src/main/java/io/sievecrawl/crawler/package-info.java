/**
 * The crawler: fetcher workers on virtual threads that take URLs from the sieve, fetch them politely, follow
 * links and redirects, and report one result per fetched URL.
 *
 * <p>Start with {@link io.sievecrawl.crawler.Crawler}. A worker takes a lease from the scheduler and runs it through
 * a {@link io.sievecrawl.crawler.LeasePipeline}: small {@link io.sievecrawl.crawler.LeaseStep}s in the order
 * {@link io.sievecrawl.crawler.LeaseSteps} puts them (robots.txt, budgets, the fetch, retries, cookie and redirect
 * follow-ups, sitemaps, pages), each deciding or adding to the lease's {@link io.sievecrawl.crawler.Outcome}; then
 * {@link io.sievecrawl.crawler.LeaseCloser}, the one place that touches scope, the frontier, the scheduler and the
 * sinks, carries it out. The pieces live in sub-packages:
 * {@code url} (normalization), {@code fetch} (OkHttp), {@code html} (jsoup links), {@code robots}
 * (robots.txt), {@code schedule} (per-host politeness), {@code scope} (which URLs belong to the crawl),
 * {@code report} (counters, the summary, the skip log), {@code result} (records and their JSON Lines form),
 * {@code home} (where a crawl lives), {@code job} (the crawl directory) and {@code warc} (archives).
 */
package io.sievecrawl.crawler;

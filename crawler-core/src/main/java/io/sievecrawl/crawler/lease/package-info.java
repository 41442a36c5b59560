/**
 * The lease pipeline: what a fetcher worker does with one lease of one URL, from robots.txt to the record written.
 *
 * <p>The one entry point is {@link io.sievecrawl.crawler.lease.LeasePipeline}: {@code LeasePipeline.of(settings,
 * shared)} builds a crawl's pipeline over what its leases share ({@link
 * io.sievecrawl.crawler.lease.LeasePipeline.Shared}: the scheduler, the fetcher, robots.txt, scope, the sinks, the
 * counters), and {@code process(lease)} runs one lease through it. Everything else here is package-private.
 *
 * <p>A lease goes through small {@link io.sievecrawl.crawler.lease.LeaseStep}s, in the order {@link
 * io.sievecrawl.crawler.lease.LeaseSteps} puts them, each an OkHttp-style interceptor that decides the lease's
 * {@link io.sievecrawl.crawler.lease.Outcome} itself or passes it on ({@code chain.proceed()}):
 * <ol>
 *   <li>{@link io.sievecrawl.crawler.lease.FreshGate}: a recrawl's URL fetched recently enough is kept, not fetched;
 *   <li>{@link io.sievecrawl.crawler.lease.RobotsGate} (with robots.obey): disallowed, or the origin waits for its
 *       robots.txt; its Crawl-delay and sitemaps settle at once;
 *   <li>{@link io.sievecrawl.crawler.lease.BudgetGate}: crawl.max-pages-per-host and crawl.max-pages;
 *   <li>{@link io.sievecrawl.crawler.lease.FetchStep}: the request, gated on the wire by a {@link
 *       io.sievecrawl.crawler.lease.LeaseGate} (the lease still this agent's, the origin's delay passed); the
 *       origin's pace learns from the response at once;
 *   <li>{@link io.sievecrawl.crawler.lease.NotModifiedStep}: a revisit answered 304 is recorded as unchanged;
 *   <li>{@link io.sievecrawl.crawler.lease.RetryPolicy}: a 5xx, a 429 or a network error is handed back to wait;
 *   <li>{@link io.sievecrawl.crawler.lease.CookieFollowUp} (with fetch.cookies): a cookie check fetched again;
 *   <li>{@link io.sievecrawl.crawler.lease.RedirectFollowUp}: a redirect recorded with its target;
 *   <li>{@link io.sievecrawl.crawler.lease.ListingReader}: sitemaps and feeds;
 *   <li>{@link io.sievecrawl.crawler.lease.StyleSheetReader} (with requisites.fetch): a style sheet's URLs;
 *   <li>{@link io.sievecrawl.crawler.lease.PageReader}: an HTML page's links, title, text and requisites.
 * </ol>
 * A fetched response that every step passes on is recorded as it came.
 *
 * <p>The steps change nothing the crawl shares. {@link io.sievecrawl.crawler.lease.LeaseCloser} does, the one
 * place that does: for the Outcome (a sealed type, one record per way a lease ends) it offers the URLs found through
 * scope to the frontier, writes the record (and only then counts it and keeps the visit), and ends the lease in the
 * scheduler exactly once: completed, completed without a fetch, handed back, postponed or abandoned. What cannot
 * wait for the lease's end (the origin's response time, a rest it asked for, robots.txt's news) a step settles at
 * once as an {@link io.sievecrawl.crawler.lease.Outcome.Interim}, also through the closer. A step that throws is one
 * bad page, recorded as an internal error; a failure to write stops the crawl and leaves the lease for a resumed one.
 *
 * <p>{@link io.sievecrawl.crawler.lease.OriginWarnings} keeps the fetch step's warnings to one per origin.
 */
package io.sievecrawl.crawler.lease;

/**
 * Where a crawl lives between runs and machines. Start with {@link io.sievecrawl.crawler.home.CrawlHome}, the
 * contract: the crawl's {@link io.sievecrawl.crawler.home.CrawlIdentity} (n, p, confirm, generation, and the one
 * rule for changing them), its frontier, the state earlier runs left, its page budget, sites in scope and visits,
 * and the start and end of each run.
 *
 * <ul>
 *   <li>{@link io.sievecrawl.crawler.home.MemoryHome}: this process only (tests, library callers, benchmarks);
 *   <li>{@code io.sievecrawl.crawler.job.DirectoryHome}: a crawl directory ({@code crawl --job}, {@code resume});
 *   <li>{@link io.sievecrawl.crawler.home.SharedHome}: Redis, shared by agents ({@code crawl --redis}, {@code join}).
 * </ul>
 *
 * <p>{@link io.sievecrawl.crawler.home.Frontiers} is the only place a frontier kind is chosen. The
 * {@code Crawler} takes a home whose run has started; the app runs any home through one protocol.
 */
package io.sievecrawl.crawler.home;

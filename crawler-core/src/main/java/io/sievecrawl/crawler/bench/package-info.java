/**
 * Crawl benchmarking: {@link io.sievecrawl.crawler.bench.SyntheticSite} serves a generated site on loopback and
 * {@link io.sievecrawl.crawler.bench.CrawlBenchmark} crawls it at several concurrency levels.
 */
package io.sievecrawl.crawler.bench;

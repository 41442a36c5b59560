/**
 * Crawl benchmarking: {@link io.sievecrawl.crawler.bench.SyntheticSite} serves a generated site on loopback and
 * {@link io.sievecrawl.crawler.bench.CrawlBenchmark} crawls it at several concurrency levels.
 *
 * <p>A benchmark measures real time: its crawls run on the system's ticker and wall clock, and it reads
 * {@code System.nanoTime()} itself, where the rest of the crawler reads only the clocks it is given.
 */
package io.sievecrawl.crawler.bench;

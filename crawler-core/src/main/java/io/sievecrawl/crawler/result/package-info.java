/**
 * Crawl results: {@link io.sievecrawl.crawler.result.CrawlResult}, one per fetched URL, handed to a
 * {@link io.sievecrawl.crawler.result.ResultSink} such as the {@link io.sievecrawl.crawler.result.JsonLinesWriter}.
 */
package io.sievecrawl.crawler.result;

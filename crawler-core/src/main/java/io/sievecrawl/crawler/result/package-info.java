/**
 * Crawl results: {@link io.sievecrawl.crawler.result.CrawlResult}, one per fetched URL (and one per URL given up
 * without a request, with its {@link io.sievecrawl.crawler.result.ErrorKind}), handed from many workers at once to a
 * {@link io.sievecrawl.crawler.result.ResultSink} such as the {@link io.sievecrawl.crawler.result.JsonLinesWriter},
 * which writes the JSON Lines records app/docs/outputs.md describes, one {@code write} per line.
 */
package io.sievecrawl.crawler.result;

/** The fetch pipeline: {@link io.sievecrawl.crawler.fetch.PageFetcher} turns a URL into a {@link io.sievecrawl.crawler.fetch.FetchResponse}. */
package io.sievecrawl.crawler.fetch;

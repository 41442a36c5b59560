/** WARC archives of what a crawl fetched: {@link io.sievecrawl.crawler.warc.WarcArchive}. */
package io.sievecrawl.crawler.warc;

/** Link extraction from HTML pages with jsoup: start with {@link io.sievecrawl.crawler.html.LinkExtractor}. */
package io.sievecrawl.crawler.html;

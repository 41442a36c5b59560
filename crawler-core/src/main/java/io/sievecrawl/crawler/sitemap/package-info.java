/** Sitemaps (sitemaps.org): reading the URLs a fetched sitemap lists. */
package io.sievecrawl.crawler.sitemap;

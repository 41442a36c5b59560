/**
 * Sitemaps (sitemaps.org) and feeds: {@link io.sievecrawl.crawler.sitemap.SitemapReader} reads the URLs a fetched
 * XML sitemap, sitemap index, text sitemap, RSS or Atom feed lists (gzip-compressed or not, without document type
 * definitions), through crawler-commons. It never fetches: a sitemap is fetched like any URL, with robots.txt,
 * scope and budgets applied, and the crawler follows what it lists.
 */
package io.sievecrawl.crawler.sitemap;

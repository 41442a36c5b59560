/**
 * The crawl directory: everything a crawl needs to continue after any interruption. Start with
 * {@link io.sievecrawl.crawler.job.CrawlJob}.
 *
 * <pre>
 * DIR/manifest.json        format, version, status, results file, filter n and p (replaced atomically)
 * DIR/settings.conf        the crawl's settings as a config file
 * DIR/seeds.txt            the normalized seed URLs
 * DIR/state.json           totals, hosts in scope (replaced atomically, every few seconds)
 * DIR/pages-per-origin.cms per-origin page counts, a count-min sketch (likewise)
 * DIR/cookies.txt          the cookies sites set, in the Netscape format curl and wget read (likewise)
 * DIR/frontier/            the disk frontier: log segments, filter checkpoint, its own checkpoint file
 * </pre>
 */
package io.sievecrawl.crawler.job;

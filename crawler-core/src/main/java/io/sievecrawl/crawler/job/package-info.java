/**
 * The crawl directory: a crawl's home ({@link io.sievecrawl.crawler.home.CrawlHome}) on disk, everything a crawl
 * needs to continue after any interruption. Start with {@link io.sievecrawl.crawler.job.DirectoryHome}; its
 * {@link io.sievecrawl.crawler.job.Manifest} and {@link io.sievecrawl.crawler.job.StateFiles} keep what the names
 * say.
 *
 * <pre>
 * DIR/manifest.json        format, version, status, results file, filter n and p (replaced atomically)
 * DIR/settings.conf        the crawl's settings as a config file
 * DIR/seeds.txt            the normalized seed URLs
 * DIR/state.json           totals, hosts in scope (replaced atomically, every few seconds)
 * DIR/pages-per-origin.cms per-origin page counts, a count-min sketch (likewise)
 * DIR/cookies.txt          the cookies sites set, in the Netscape format curl and wget read (likewise)
 * DIR/lock                 held by the one process that works the crawl
 * DIR/visits-G.jsonl       what each visit of generation G learned, for the next recrawl
 * DIR/carried-G.txt        the URLs generation G - 1 left queued, for recrawl G
 * DIR/robots.log           robots.txt rules fetched, one line each, until they expire (appended; rewritten at a resume)
 * DIR/frontier/            the disk frontier: log segments, filter checkpoint, its own checkpoint file
 *                          (frontier-G/ for recrawl G)
 * DIR/warc-dirs.txt        every WARC directory the crawl's runs wrote to (WarcDirectories)
 * </pre>
 *
 * <p>{@link io.sievecrawl.crawler.job.CrawlFiles} names them all, and tells whether a path is one of them.
 */
package io.sievecrawl.crawler.job;

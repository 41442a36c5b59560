/**
 * Which URLs belong to the crawl. Start with {@link io.sievecrawl.crawler.scope.ScopePolicy}: a link's site against
 * the seeds' (crawl.scope host, domain or any), local addresses, crawl.include and crawl.exclude, the depth limit and
 * the spider-trap guards; a seed redirect within its registrable domain brings the target's site in.
 * {@link io.sievecrawl.crawler.scope.RequisiteScope} says where a page's requisites may come from (requisites.scope).
 * In a crawl shared by agents the sites in scope are shared too: {@link io.sievecrawl.crawler.scope.ScopeSites} is
 * where they are published (a crawl's home provides it), and {@link io.sievecrawl.crawler.scope.SharedScope} reads
 * them back while the crawl runs.
 */
package io.sievecrawl.crawler.scope;

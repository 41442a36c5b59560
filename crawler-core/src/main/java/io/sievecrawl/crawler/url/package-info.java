/**
 * URL resolution and normalization: {@link io.sievecrawl.crawler.url.UrlNormalizer} gives every URL the one
 * canonical form under which it is sieved and fetched, as a {@link io.sievecrawl.crawler.url.Url} (scheme, host,
 * port, origin, path and query known without scanning again; its {@code toString()} is the canonical string);
 * {@link io.sievecrawl.crawler.url.ReferenceResolver} resolves the links of one page against its base, each distinct
 * href once.
 */
package io.sievecrawl.crawler.url;

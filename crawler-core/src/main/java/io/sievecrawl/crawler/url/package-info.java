/**
 * URL resolution and normalization: {@link io.sievecrawl.crawler.url.UrlNormalizer} gives every URL the one
 * canonical form under which it is sieved and fetched.
 */
package io.sievecrawl.crawler.url;

/**
 * The crawler: fetcher workers on virtual threads that take URLs from the sieve, fetch them politely, follow
 * links and redirects, and report one result per fetched URL.
 *
 * <p>Start with {@link io.sievecrawl.crawler.Crawler}. The pieces it wires together live in sub-packages:
 * {@code url} (normalization), {@code fetch} (OkHttp), {@code html} (jsoup links), {@code robots}
 * (robots.txt), {@code schedule} (per-host politeness) and {@code result} (records and their JSON Lines form).
 */
package io.sievecrawl.crawler;

/**
 * robots.txt (RFC 9309), parsed by crawler-commons: start with {@link io.sievecrawl.crawler.robots.RobotsPolicy}.
 *
 * <p>The policy fetches each origin's robots.txt in the background ({@code RobotsFetcher}: 2xx gives the rules, 4xx
 * none, 429 and 5xx pause the origin and are tried again, then give it up), so that a slow robots.txt never holds a
 * worker, and caches the parsed rules per origin within {@code robots.cache-memory}. Its answer for one URL is a
 * {@link io.sievecrawl.crawler.robots.RobotsVerdict}: allowed (with the Crawl-delay to keep), disallowed, being
 * fetched, unreachable for now, or the origin given up.
 */
package io.sievecrawl.crawler.robots;

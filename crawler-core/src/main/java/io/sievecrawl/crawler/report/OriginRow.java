package io.sievecrawl.crawler.report;

import java.util.Map;

/**
 * One origin's line in the report at the end of a crawl run.
 *
 * @param origin {@code scheme://host[:port]}
 * @param pages fetches recorded
 * @param bytes body bytes read
 * @param byStatusClass fetches by status class ({@code 2xx} ... {@code none})
 * @param errors fetches that ended in an error
 * @param robots {@code allowed}, {@code unavailable: why}, or {@code unknown} (not obeyed, or not fetched yet)
 * @param disallowed URLs robots.txt disallowed
 * @param pausedMillis time the origin was paused (Retry-After, retries, robots.txt unreachable)
 */
public record OriginRow(String origin, long pages, long bytes, Map<String, Long> byStatusClass, long errors,
    String robots, long disallowed, long pausedMillis) {}

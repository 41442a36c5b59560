/**
 * Per-origin politeness between the frontier and the workers: start with
 * {@link io.sievecrawl.crawler.schedule.HostScheduler}, then {@code LeaseFinder}'s design notes (the lock let go
 * around a shared frontier's calls).
 *
 * <p>The scheduler checks origins out of the frontier into a bounded active set ({@code OriginsAtHand} of
 * {@code ActiveOrigin}s), keeps each one's pace ({@code OriginPace}: the last start plus its delay, adapted to the
 * server and paused after 429 and 503, as {@code Politeness} says) and hands a worker the task of the origin that
 * became due first ({@code DueOrigins}, a heap; {@code LeaseFinder}). One waiting worker keeps time for all
 * ({@code Timekeeper}), so a crawl of many slow origins does not wake every worker at every due time. A slow or
 * failing origin holds back only itself.
 */
package io.sievecrawl.crawler.schedule;

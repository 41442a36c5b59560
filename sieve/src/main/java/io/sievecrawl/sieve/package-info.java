/**
 * The URL sieve: a FIFO frontier per origin gated by a lock-striped, blocked Bloom filter, with an exact store
 * behind the filter.
 *
 * <p>Start with {@link io.sievecrawl.sieve.Frontier}, the contract crawler workers push to and take from (admission,
 * queues checked out one origin at a time, completion), and its three kinds: {@link io.sievecrawl.sieve.Sieve} in
 * memory, {@link io.sievecrawl.sieve.disk.DiskFrontier} on disk (survives kill -9) and
 * {@link io.sievecrawl.sieve.redis.RedisFrontier} shared by agents. Behind each:
 * <ul>
 *   <li>{@link io.sievecrawl.sieve.BloomFilter}, the filter (exact atomic admission, no false negatives),
 *       {@link io.sievecrawl.sieve.BloomSizing} (its size from n and p) and
 *       {@link io.sievecrawl.sieve.BloomFilterFile} (its file form);
 *   <li>{@link io.sievecrawl.sieve.Admission}, where a URL the filter takes for seen is settled against a
 *       {@link io.sievecrawl.sieve.SeenStore} of 64-bit fingerprints ({@code filter.confirm}), so that a false
 *       positive costs time, not a page;
 *   <li>{@link io.sievecrawl.sieve.CapacityMonitor}, the warning when the filter passes n, 2n, 4n, ...;
 *       {@link io.sievecrawl.sieve.PerKeyBudget}, the per-origin page budget (a count-min sketch).
 * </ul>
 *
 * <p>This module knows nothing of HTTP, HTML, configuration files or the command line. Its README has the
 * guarantees, the layouts and the measurements.
 */
package io.sievecrawl.sieve;

/**
 * The URL sieve: a FIFO frontier gated by a lock-striped, blocked Bloom filter.
 *
 * <p>Start with {@link io.sievecrawl.sieve.Sieve}, the frontier that crawler workers push to and take from.
 * {@link io.sievecrawl.sieve.BloomFilter} is the filter behind it (exact atomic admission, no false negatives);
 * {@link io.sievecrawl.sieve.BloomSizing} computes its size from n and p; {@link io.sievecrawl.sieve.BloomFilterFile}
 * saves and restores it.
 *
 * <p>This module knows nothing of HTTP, HTML, configuration files or the command line.
 */
package io.sievecrawl.sieve;

/**
 * The disk-backed frontier: {@link io.sievecrawl.sieve.disk.DiskFrontier}, an append-only log that is both the
 * crawl's queue and its URL filter's redo log, with a bounded heap and recovery after kill -9 or a power cut.
 *
 * <p>Start with {@code DiskFrontier}'s design notes. Everything else here is package-private: the log's record
 * format ({@code LogFormat}), its writer and reader, the acknowledgement window and the checkpoint file.
 */
package io.sievecrawl.sieve.disk;

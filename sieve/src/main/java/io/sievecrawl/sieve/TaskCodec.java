package io.sievecrawl.sieve;

/**
 * Turns tasks into bytes and back, for frontiers that keep tasks outside the heap (on disk, in Redis).
 *
 * <p>{@code decode(encode(t))} must equal {@code t}; an encoded task should be small, as a frontier may hold
 * hundreds of millions of them.
 */
public interface TaskCodec<T> {

  /** The task's bytes. */
  byte[] encode(T task);

  /**
   * The task encoded in {@code bytes[offset, offset + length)}.
   *
   * @throws IllegalArgumentException if the bytes are not an encoded task
   */
  T decode(byte[] bytes, int offset, int length);
}

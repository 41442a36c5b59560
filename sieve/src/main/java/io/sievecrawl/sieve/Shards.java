package io.sievecrawl.sieve;

/** Which of a number of shards a key belongs to, from the key's hash code. */
public final class Shards {
  private Shards() {}

  /**
   * The shard of a key whose hash code is {@code hash}, among {@code shards}: the hash mixed first (MurmurHash3's
   * 32-bit finalizer) so that every bit of it counts. A multiply alone leaves the low bits, which a modulus reads, as
   * they were: 300 hosts named alike ({@code h1.example}, {@code h2.example}, ...) fell in 38 of 64 shards.
   */
  public static int of(int hash, int shards) {
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be at least 1, was " + shards);
    }
    int h = hash;
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    h ^= h >>> 16;
    return Math.floorMod(h, shards);
  }
}

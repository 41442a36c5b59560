package io.sievecrawl.sieve;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * MurmurHash3 x64_128 of the UTF-8 encoding of a {@link CharSequence}: equal to the reference algorithm (and Guava's
 * {@code Hashing.murmur3_128(seed)}) applied to {@code s.toString().getBytes(UTF_8)}, where an unpaired surrogate
 * becomes {@code '?'}.
 */
final class Murmur3 {
  /*
   * The bytes come from String.getBytes(UTF_8), one intrinsic copy for the usual Latin-1 string, and are read
   * eight at a time, little-endian. Reading the characters one by one through charAt and encoding them on the fly
   * avoids that short-lived array but measured two to four times slower here (130 to 270 ns against about 55 ns for
   * an 80-character URL), more than the hash itself.
   */

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  private Murmur3() {}

  static Hash128 hash128(CharSequence s, long seed) {
    return hash128(s.toString().getBytes(StandardCharsets.UTF_8), seed);
  }

  /** MurmurHash3 x64_128 of {@code bytes}. */
  static Hash128 hash128(byte[] bytes, long seed) {
    long h1 = seed;
    long h2 = seed;
    int n = bytes.length;
    int i = 0;
    for (; n - i >= 16; i += 16) {
      h1 ^= mixK1((long) LONGS.get(bytes, i));
      h1 = Long.rotateLeft(h1, 27) + h2;
      h1 = h1 * 5 + 0x52dce729;
      h2 ^= mixK2((long) LONGS.get(bytes, i + 8));
      h2 = Long.rotateLeft(h2, 31) + h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    long k1 = 0;
    long k2 = 0;
    for (int j = 0; i + j < n; j++) {
      long b = bytes[i + j] & 0xFFL;
      if (j < 8) {
        k1 |= b << (j << 3);
      } else {
        k2 |= b << ((j - 8) << 3);
      }
    }
    return finish(h1 ^ mixK1(k1), h2 ^ mixK2(k2), n);
  }

  private static Hash128 finish(long h1, long h2, long length) {
    h1 ^= length;
    h2 ^= length;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    return new Hash128(h1, h2);
  }

  private static long mixK1(long k1) {
    k1 *= C1;
    k1 = Long.rotateLeft(k1, 31);
    return k1 * C2;
  }

  private static long mixK2(long k2) {
    k2 *= C2;
    k2 = Long.rotateLeft(k2, 33);
    return k2 * C1;
  }

  private static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}

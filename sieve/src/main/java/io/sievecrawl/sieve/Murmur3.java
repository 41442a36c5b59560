package io.sievecrawl.sieve;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * MurmurHash3 x64_128 of the UTF-8 encoding of a {@link CharSequence}.
 *
 * <p>The result equals the reference algorithm (and Guava's {@code Hashing.murmur3_128(seed)}) applied
 * to {@code s.toString().getBytes(UTF_8)}, including the replacement of unpaired surrogates by {@code '?'}.
 */
final class Murmur3 {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  /*
   * For a String, the bytes come from String.getBytes(UTF_8) and are read eight at a time, little-endian. For
   * other CharSequences the loop in hash128Utf8 encodes characters to UTF-8 on the fly and packs the bytes
   * little-endian into the two 64-bit block halves k1 and k2; runs of 16 ASCII characters are packed a whole
   * block at a time. Each completed 16-byte block is mixed exactly as in the reference
   * MurmurHash3_x64_128 (Austin Appleby, public domain); the tail and finalization follow it too.
   */

  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  private Murmur3() {}

  static Hash128 hash128(CharSequence s, long seed) {
    // A String's UTF-8 bytes come from one intrinsic copy (or the JDK's encoder); hashing them eight bytes at a
    // time is several times faster than reading the characters one by one, which costs more than the short-lived
    // array. Other CharSequences are encoded on the fly without copying.
    return s instanceof String string
        ? hash128(string.getBytes(StandardCharsets.UTF_8), seed)
        : hash128Utf8(s, seed);
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

  /** The general path: any characters, encoded to UTF-8 on the fly. */
  private static Hash128 hash128Utf8(CharSequence s, long seed) {
    long h1 = seed;
    long h2 = seed;
    long k1 = 0;
    long k2 = 0;
    int fill = 0; // bytes in the current block
    long length = 0; // bytes hashed so far
    int pending = 0; // encoded bytes of the current character, lowest byte first
    int pendingCount = 0;
    int i = 0;
    int n = s.length();
    for (; ; ) {
      if (pendingCount == 0) {
        if (i >= n) {
          break;
        }
        if (fill == 0 && n - i >= 16) {
          long lo = packAscii(s, i);
          long hi = lo < 0 ? -1 : packAscii(s, i + 8);
          if (hi >= 0) {
            k1 = lo;
            k2 = hi;
            fill = 16;
            i += 16;
            length += 16;
          }
        }
        if (fill < 16) {
          char c = s.charAt(i++);
          if (c < 0x80) {
            pending = c;
            pendingCount = 1;
          } else if (c < 0x800) {
            pending = (0xC0 | (c >>> 6)) | (0x80 | (c & 0x3F)) << 8;
            pendingCount = 2;
          } else if (!Character.isSurrogate(c)) {
            pending = (0xE0 | (c >>> 12)) | (0x80 | ((c >>> 6) & 0x3F)) << 8 | (0x80 | (c & 0x3F)) << 16;
            pendingCount = 3;
          } else if (Character.isHighSurrogate(c) && i < n && Character.isLowSurrogate(s.charAt(i))) {
            int cp = Character.toCodePoint(c, s.charAt(i++));
            pending = (0xF0 | (cp >>> 18))
                | (0x80 | ((cp >>> 12) & 0x3F)) << 8
                | (0x80 | ((cp >>> 6) & 0x3F)) << 16
                | (0x80 | (cp & 0x3F)) << 24;
            pendingCount = 4;
          } else {
            pending = '?'; // what String.getBytes(UTF_8) writes for an unpaired surrogate
            pendingCount = 1;
          }
          length += pendingCount;
        }
      }
      for (; pendingCount > 0 && fill < 16; pendingCount--, pending >>>= 8, fill++) {
        long b = pending & 0xFFL;
        if (fill < 8) {
          k1 |= b << (fill << 3);
        } else {
          k2 |= b << ((fill - 8) << 3);
        }
      }
      if (fill == 16) {
        h1 ^= mixK1(k1);
        h1 = Long.rotateLeft(h1, 27) + h2;
        h1 = h1 * 5 + 0x52dce729;
        h2 ^= mixK2(k2);
        h2 = Long.rotateLeft(h2, 31) + h1;
        h2 = h2 * 5 + 0x38495ab5;
        k1 = 0;
        k2 = 0;
        fill = 0;
      }
    }
    // Tail: a partial block's halves are mixed without the rotate-add steps. A zero half mixes to zero.
    return finish(h1 ^ mixK1(k1), h2 ^ mixK2(k2), length);
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

  /** Eight ASCII characters as eight little-endian bytes, or -1 when one of them is not ASCII. */
  private static long packAscii(CharSequence s, int from) {
    long packed = 0;
    int seen = 0;
    for (int j = 0; j < 8; j++) {
      char c = s.charAt(from + j);
      seen |= c;
      packed |= (long) c << (j << 3);
    }
    return seen < 0x80 ? packed : -1;
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

package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.hash.HashCode;
import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Our streaming MurmurHash3 must equal the reference over the string's UTF-8 bytes (Guava's implementation). */
class Murmur3Test {

  @Test
  void matchesReferenceOnFixedStrings() {
    String[] samples = {
        "", "a", "ab", "abcdefg", "abcdefgh", "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq",
        "https://example.com/", "https://www.example.com/a/b/c?d=e#f", "https://bücher.example/straße",
        "https://例え.jp/パス", "emoji 😀 in the middle of a sixteen-char block", "\uD800 lone high", "lone low \uDC00",
        "ends in high \uD83D", "é".repeat(40), "0123456789abcdef0123456789abcdef"};
    for (String s : samples) {
      for (int seed : new int[] {0, 1, -1, 0x5eed}) {
        assertMatchesReference(s, seed);
      }
    }
  }

  @Test
  void matchesReferenceOnRandomStrings() {
    SplittableRandom random = new SplittableRandom(42);
    for (int t = 0; t < 20_000; t++) {
      int length = random.nextInt(80);
      StringBuilder s = new StringBuilder(length);
      for (int i = 0; i < length; i++) {
        s.append(randomChar(random));
      }
      assertMatchesReference(s.toString(), random.nextInt());
    }
  }

  @Test
  void hashesACharSequenceLikeItsString() {
    StringBuilder builder = new StringBuilder("https://example.org/reused/builder/");
    assertEquals(Murmur3.hash128(builder.toString(), 7), Murmur3.hash128(builder, 7));
  }

  private static char randomChar(SplittableRandom random) {
    return switch (random.nextInt(10)) {
      case 0 -> (char) (0x80 + random.nextInt(0x780)); // two UTF-8 bytes
      case 1 -> (char) (0x800 + random.nextInt(0xD000)); // three bytes (stays below the surrogates)
      case 2 -> (char) (0xD800 + random.nextInt(0x800)); // a surrogate, paired or not
      default -> (char) random.nextInt(0x80); // ASCII, as in most URLs
    };
  }

  private static void assertMatchesReference(String s, int seed) {
    HashCode expected = Hashing.murmur3_128(seed).hashBytes(s.getBytes(StandardCharsets.UTF_8));
    ByteBuffer bytes = ByteBuffer.wrap(expected.asBytes()).order(ByteOrder.LITTLE_ENDIAN);
    Hash128 actual = Murmur3.hash128(s, seed);
    assertEquals(new Hash128(bytes.getLong(0), bytes.getLong(8)), actual, () -> "hash of " + escape(s));
  }

  private static String escape(String s) {
    StringBuilder out = new StringBuilder();
    s.chars().forEach(c -> out.append(c < 0x80 ? String.valueOf((char) c) : String.format("\\u%04x", c)));
    return out.toString();
  }
}

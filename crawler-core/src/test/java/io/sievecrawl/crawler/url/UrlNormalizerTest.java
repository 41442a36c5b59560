package io.sievecrawl.crawler.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class UrlNormalizerTest {
  private final UrlNormalizer normalizer = new UrlNormalizer(2048, true);

  /** The cases of src/test/resources/url-normalization.txt: base | reference | expected. */
  static Stream<Arguments> table() throws IOException {
    List<Arguments> cases = new ArrayList<>();
    try (InputStream in = UrlNormalizerTest.class.getResourceAsStream("/url-normalization.txt")) {
      String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
      for (int i = 0; i < lines.length; i++) {
        String line = lines[i];
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] columns = line.split("\\|", -1);
        if (columns.length != 3) {
          throw new IllegalStateException("line " + (i + 1) + " needs three columns: " + line);
        }
        String reference = columns[1].strip();
        cases.add(Arguments.of(i + 1, columns[0].strip(), reference.equals("\"\"") ? "" : reference,
            columns[2].strip()));
      }
    }
    if (cases.size() < 50) {
      throw new IllegalStateException("the table should hold at least 50 cases, has " + cases.size());
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "line {0}: {1} + {2} -> {3}")
  @MethodSource("table")
  void normalizesAsTheTableSays(int line, String base, String reference, String expected) {
    String actual = base.equals("-") ? normalizer.normalizeOrNull(reference)
        : normalizer.resolveOrNull(base, reference);
    assertEquals(expected.equals("INVALID") ? null : expected, actual, "line " + line);
    if (actual != null) {
      assertEquals(actual, normalizer.normalizeOrNull(actual), "normalizing twice changes nothing");
    }
  }

  @Test
  void urlsOverTheLengthCapAreRefusedWithTheReason() {
    UrlNormalizer short100 = new UrlNormalizer(100, true);
    String url = "http://example.com/" + "a".repeat(81);
    assertEquals(url, short100.normalizeOrNull(url));
    InvalidUrlException e = assertThrows(InvalidUrlException.class, () -> short100.normalize(url + "b"));
    assertEquals("longer than 100 characters", e.getMessage());
  }

  @Test
  void surroundingSpacesAndEmbeddedTabsAndNewlinesAreRemoved() {
    assertEquals("http://example.com/a/b", normalizer.resolveOrNull("http://example.com/a/", "  b \n"));
    assertEquals("http://example.com/ab", normalizer.normalizeOrNull("\thttp://exam\nple.com/a\tb "));
  }

  @Test
  void sidIsASessionIdOnlyWhenItsValueLooksMinted() {
    for (String kept : List.of("http://example.com/article.php?sid=42", "http://example.com/a?id=7&sid=9",
        "http://example.com/story.php?sid=06/11/22/1234", "http://example.com/s?sid=1234567890123456789",
        "http://example.com/s?sid=introduction-to-java", "http://example.com/p;sid=42/x")) {
      assertEquals(kept, normalizer.normalizeOrNull(kept));
    }
    assertEquals("http://example.com/forum?t=5", normalizer.normalizeOrNull(
        "http://example.com/forum?t=5&sid=0cc175b9c0f1b6a831c399e269772661"));
    assertEquals("http://example.com/shop?page=2", normalizer.normalizeOrNull(
        "http://example.com/shop?sid=550e8400-e29b-41d4-a716-446655440000&page=2"));
    assertEquals("http://example.com/cart", normalizer.normalizeOrNull(
        "http://example.com/cart?sid=k3v0q8l2m9n1b4c7x5z6a8s2d1"));
    assertEquals("http://example.com/p/x", normalizer.normalizeOrNull(
        "http://example.com/p;sid=0cc175b9c0f1b6a831c399e269772661/x"));
    assertEquals("http://example.com/p?a=1", normalizer.normalizeOrNull("http://example.com/p?PHPSESSID=42&a=1"),
        "a name only session ids have is removed whatever its value");
  }

  @Test
  void sessionIdsAreKeptWhenStrippingIsOff() {
    UrlNormalizer keeping = new UrlNormalizer(2048, false);
    assertEquals("http://example.com/p;jsessionid=1?sid=2", keeping.normalizeOrNull("http://example.com/p;jsessionid=1?sid=2"));
  }

  @ParameterizedTest
  @MethodSource("canonicalSamples")
  void aCanonicalUrlReadBackHasTheSamePartsAsWhenItWasMade(String raw) throws InvalidUrlException {
    Url made = normalizer.get(raw);
    Url readBack = Url.ofCanonical(made.toString());
    assertEquals(made.toString(), readBack.toString());
    assertEquals(made.scheme(), readBack.scheme());
    assertEquals(made.host(), readBack.host());
    assertEquals(made.port(), readBack.port());
    assertEquals(made.origin(), readBack.origin());
    assertEquals(made.path(), readBack.path());
    assertEquals(made.query(), readBack.query());
    assertEquals(made, readBack);
  }

  static Stream<String> canonicalSamples() {
    return Stream.of("https://example.com/a/b?c=/d", "http://127.0.0.1:8080/", "http://[::1]:8080/x?y",
        "HTTP://[0:0::1]/", "https://Example.COM:443/%7euser/?q=a:b#frag", "http://xn--fa-hia.de:65535/p;x=1?",
        "http://ex.com?q=1", "https://faß.de/ü?ä=1", "http://a.com:81/p?q=http://b.com:82/", "http://a.com/x?y?", "http://a.com/x??");
  }

  @Test
  void aHostWhoseLastLabelOnlyStartsWithANumberIsAName() throws InvalidUrlException {
    // The URL standard's IPv4 number parser fails on the letter, however many digits come before it.
    assertEquals("http://4294967296a/", normalizer.normalize("http://4294967296a/"));
    assertEquals("http://65536655360x7f/", normalizer.normalize("http://65536655360x7f/"));
    assertEquals("http://a.99999999999b/", normalizer.normalize("http://a.99999999999b/"));
    assertThrows(InvalidUrlException.class, () -> normalizer.normalize("http://4294967296/"));
    assertThrows(InvalidUrlException.class, () -> normalizer.normalize("http://0x100000000/"));
  }

  @Test
  void aStringOfAnotherShapeIsNoCanonicalUrl() {
    for (String bad : List.of("", "ftp://a.com/", "http://a.com", "http:///x", "http://a.com:/x", "http://a.com:8o/x",
        "http://a.com:1234567/x", "http://[::1/x", "http://[::1]x/", "example.com/", "http://a:80/", "https://a:443/",
        "http://a:0/", "http://a:99999/", "http://a:00080/", "http://[]/", "http://[::G]/", "http://a/?",
        "http://a/#x", "http://A/", "http://a b/", "http://a%41/")) {
      assertThrows(IllegalArgumentException.class, () -> Url.ofCanonical(bad), bad);
    }
  }

  @Test
  void refusalsSayWhy() {
    assertEquals("unsupported scheme 'mailto'",
        assertThrows(InvalidUrlException.class, () -> normalizer.normalize("mailto:a@b.c")).getMessage());
    assertEquals("not an absolute URL (no scheme)",
        assertThrows(InvalidUrlException.class, () -> normalizer.normalize("example.com/page")).getMessage());
    assertEquals("invalid port '99999'",
        assertThrows(InvalidUrlException.class, () -> normalizer.normalize("http://a.com:99999/")).getMessage());
    assertNull(normalizer.resolveOrNull("http://a.com/", "http://"));
    assertEquals("http://a.com/x", normalizer.normalizeOrNull("http://a.com/x"), "a URL it takes is no refusal");
  }
}

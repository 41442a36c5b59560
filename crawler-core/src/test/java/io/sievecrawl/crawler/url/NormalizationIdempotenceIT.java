package io.sievecrawl.crawler.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.encoding.WebEncoding;
import java.util.List;
import java.util.SplittableRandom;
import okhttp3.HttpUrl;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every URL the normalizer puts out is a fixed point: normalizing it again, resolving it against any base and
 * reading it back give the same string, and the HTTP client sends exactly it. Fuzzed with references built from
 * the pieces URL parsers trip over, with fixed seeds.
 */
class NormalizationIdempotenceIT {
  private static final List<String> PIECES = List.of("http:", "https:", "HTTP://", "//", "/", "\\", ".", "..",
      "%2e", "%2E.", "%", "%41", "%7e", "%zz", "%C3%BC", "%e2%80%8c", "%25", "?", "#", "@", ":", ":80", ":0080",
      ":443", ":0", "[", "]", "[::1]", "[::ffff:1.2.3.4]", "[1:0:0:2::3]", "xn--", "xn--zca", "xn--google-",
      "xn--fa-hia", "ß", "ü", "Ä", "_", "-", "--", "\u200c", "\u200d", "\u0301", "\ud800", "\udc00",
      "\ud83d\ude00", "\u3002", "\uff0e", "\u3000", " ", "\t", "\n", "\u0001", "\u007f", "0x7f", "1", "255",
      "4294967296", ".1", "a", "b", "Example", "com", "'", "~", ";jsessionid=0123456789abcdef0", "&", "=",
      "sid=", "|", "^", "`", "{", "\"", "<", "\u10a0", "\u0644", "\u05d0", "1.2.3.4", "example.com", "www.",
      "%\uff14\uff11", "%1\u0661", "\u0664", "\uff0e", "\u30a8", "\u00e9", "\u20ac", "\\", "?\u3002");
  private static final List<String> BASES = List.of("http://example.com/a/b", "https://xn--fa-hia.de/x?y",
      "http://[::1]:8080/", "http://10.0.0.1/a/", "https://-x-.example/%7Eu/", "http://h/a/..;jsessionid=1",
      "http://h/a/.;jsessionid=1/c", "http://h/p?\u00e9", "http://h/%2e%2E/\u00fc?q=\uff0e");
  /** Query encodings of documents: a character's bytes in them may hold ASCII bytes (Shift_JIS U+FF0E: 0x81 0x44). */
  private static final List<WebEncoding> ENCODINGS = List.of(WebEncoding.UTF_8, WebEncoding.WINDOWS_1252,
      WebEncoding.forLabel("Shift_JIS"), WebEncoding.forLabel("EUC-KR"), WebEncoding.forLabel("GB18030"),
      WebEncoding.forLabel("ISO-2022-JP"));

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void everyOutputIsAFixedPointTheClientSendsUnchanged(boolean stripSessionIds) {
    UrlNormalizer normalizer = new UrlNormalizer(2048, stripSessionIds);
    SplittableRandom random = new SplittableRandom(stripSessionIds ? 42 : 7);
    int accepted = 0;
    for (int i = 0; i < 100_000; i++) {
      String reference = randomReference(random);
      String base = BASES.get(random.nextInt(BASES.size()));
      String once = i % 2 == 0 ? normalizer.resolveOrNull(base, reference) : normalizer.normalizeOrNull(reference);
      if (once == null) {
        continue;
      }
      accepted++;
      String context = "'" + reference + "' against " + base + " gave " + once;
      assertEquals(once, normalizer.normalizeOrNull(once), context);
      assertEquals(once, normalizer.resolveOrNull(BASES.get(random.nextInt(BASES.size())), once), context);
      assertEquals(once, Url.ofCanonical(once).toString(), context);
      assertEquals(once, HttpUrl.get(once).toString(), context);
    }
    assertTrue(accepted > 30_000, "only " + accepted + " random references made a URL");
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aPagesResolverGivesTheGeneralResultInTheDocumentsEncodingAndAFixedPoint(boolean stripSessionIds)
      throws InvalidUrlException {
    UrlNormalizer normalizer = new UrlNormalizer(2048, stripSessionIds);
    SplittableRandom random = new SplittableRandom(stripSessionIds ? 3 : 4);
    int accepted = 0;
    for (int i = 0; i < 50_000; i++) {
      String base = BASES.get(random.nextInt(BASES.size()));
      WebEncoding encoding = ENCODINGS.get(random.nextInt(ENCODINGS.size()));
      String reference = random.nextInt(10) == 0 ? "" : randomReference(random);
      Url resolved = normalizer.resolverFor(base, encoding).resolveOrNull(reference);
      String general;
      try {
        general = normalizer.resolveToUrl(base, reference, encoding).toString();
      } catch (InvalidUrlException e) {
        general = null;
      }
      String context = "'" + reference + "' against " + base + " in " + encoding;
      assertEquals(general, resolved == null ? null : resolved.toString(), context);
      if (resolved != null) {
        accepted++;
        assertEquals(resolved.toString(), normalizer.normalize(resolved.toString()), context);
        assertEquals(resolved.toString(), HttpUrl.get(resolved.toString()).toString(), context);
      }
    }
    assertTrue(accepted > 15_000, "only " + accepted + " random references made a URL");
  }

  private static String randomReference(SplittableRandom random) {
    StringBuilder s = new StringBuilder();
    if (random.nextInt(3) == 0) {
      s.append(random.nextBoolean() ? "http://" : "https://").append(PIECES.get(random.nextInt(PIECES.size())));
    }
    int pieces = 1 + random.nextInt(10);
    for (int i = 0; i < pieces; i++) {
      s.append(PIECES.get(random.nextInt(PIECES.size())));
    }
    return s.toString();
  }
}

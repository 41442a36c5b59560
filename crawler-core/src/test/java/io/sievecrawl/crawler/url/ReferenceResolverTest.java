package io.sievecrawl.crawler.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The resolver's fast path gives exactly the normalizer's general result, or leaves the reference to it. */
class ReferenceResolverTest {
  private static final List<String> BASES = List.of("http://a/b/c/d;p?q", "https://example.com/dir/page.html",
      "http://127.0.0.1:8080/api/java.base/java/lang/String.html", "http://Example.COM:80/a/../b/c?x=1",
      "https://example.com:8443/", "http://example.com", "http://[::1]:8080/x/y");
  private static final String ALPHABET = "ab/./../?#:;=&%2E%41@\\ Ä-_~'HTtp:s//0x7f.1[]";

  private final UrlNormalizer normalizer = new UrlNormalizer(2048, true);

  static List<String> bases() {
    return BASES;
  }

  @ParameterizedTest
  @MethodSource("bases")
  void fastPathAgreesWithTheGeneralPathOnTheTableAndOnRandomReferences(String base) {
    SplittableRandom random = new SplittableRandom(base.hashCode());
    int fast = 0;
    for (int i = 0; i < 20_000; i++) {
      String reference = i < PLAIN.size() ? PLAIN.get(i) : randomReference(random);
      ReferenceResolver resolver = normalizer.resolverFor(base);
      Url plain = resolver.resolvePlain(resolver.base(), reference);
      String general = normalizer.resolveOrNull(base, reference);
      if (plain != null) {
        fast++;
        assertEquals(general, plain.toString(), () -> base + " + " + reference);
        assertUrlPartsMatch(plain);
      }
      Url resolved = resolver.resolveOrNull(reference);
      assertEquals(general, resolved == null ? null : resolved.toString(), () -> base + " + " + reference);
    }
    assertTrue(fast > 1_000, "the fast path took only " + fast + " references");
  }

  private static final List<String> PLAIN = List.of("", "#top", "?", "?x=1", "g", "./g", "../g", "../../g",
      "../../../../g", "/g", "//g", "//g:81/x", "//G/x", "http://other.example/a?b#c", "HTTPS://a.b/", "https://a.b:443",
      "http:g", "g;x=1/../y", "g?PHPSESSID=1&a=2", "a/./b/../c/.", "..", ".", "//127.0.0.1:8080/", "//0x7f.1/",
      "//1.2.3.4.5/", "//999.1.1.1/", "//example.com./", "//exa_mple.com/", "//-a.com/", "//a:0/", "//a:65536/",
      "//a:080/", "//user@a/", "mailto:x@y", "javascript:void(0)", "g?y/./x", "g#s/../x", "//a?", "//a#",
      "//xn--x/", "//xn---0x7f/", "//a.xn--p1ai/", "//xn--fa-hia.de/", "//65536655360x7f/", "//4294967296a/");

  private static String randomReference(SplittableRandom random) {
    StringBuilder s = new StringBuilder();
    int length = random.nextInt(12);
    for (int i = 0; i < length; i++) {
      if (random.nextInt(4) == 0) {
        s.append(PLAIN.get(random.nextInt(PLAIN.size())));
      } else {
        s.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      }
    }
    return s.toString();
  }

  private void assertUrlPartsMatch(Url url) {
    Url parsed = normalizer.parse(url.toString());
    assertNotNull(parsed, url.toString());
    assertEquals(parsed.scheme(), url.scheme());
    assertEquals(parsed.host(), url.host());
    assertEquals(parsed.port(), url.port());
    assertEquals(parsed.origin(), url.origin());
    assertEquals(parsed.path(), url.path());
    assertEquals(parsed.query(), url.query());
  }

  @Test
  void commonLinksTakeTheFastPathAndShareTheBasesOriginString() {
    ReferenceResolver resolver = normalizer.resolverFor("http://127.0.0.1:8080/api/java.base/java/lang/String.html");
    Url link = resolver.resolvePlain(resolver.base(), "../../../java.base/java/util/List.html#add(E)");
    assertEquals("http://127.0.0.1:8080/api/java.base/java/util/List.html", link.toString());
    assertSame(resolver.base().origin(), link.origin());
    assertSame(resolver.base().host(), link.host());
    Url elsewhere = resolver.resolvePlain(resolver.base(), "https://docs.example.org/en/stable/?q=1");
    assertEquals("https://docs.example.org/en/stable/?q=1", elsewhere.toString());
    assertEquals("https://docs.example.org", elsewhere.origin());
  }

  @Test
  void aPlainAbsoluteUrlWithoutBaseIsParsedAsTheGeneralPathWouldOrLeftToIt() {
    SplittableRandom random = new SplittableRandom(42);
    ReferenceResolver resolver = normalizer.resolverFor("http://example.com/");
    int fast = 0;
    for (int i = 0; i < 20_000; i++) {
      String url = (random.nextBoolean() ? "http://" : "HTTPS://") + randomReference(random);
      Url plain = resolver.resolvePlain(null, url);
      if (plain != null) {
        fast++;
        assertEquals(normalizer.normalizeOrNull(url), plain.toString(), url);
      }
    }
    assertTrue(fast > 1_000, "the fast path took only " + fast + " URLs");
    assertNull(resolver.resolvePlain(null, "/relative"));
    assertNull(resolver.resolvePlain(null, "//scheme-relative.example/"));
  }

  @Test
  void eachDistinctReferenceIsResolvedOnce() {
    ReferenceResolver resolver = normalizer.resolverFor("http://example.com/a/");
    assertSame(resolver.resolveOrNull("b%20c"), resolver.resolveOrNull("b%20c"));
    assertNull(resolver.resolveOrNull("mailto:a@b.c"));
    assertNull(resolver.resolveOrNull("mailto:a@b.c"));
  }

  @Test
  void aBaseTheCrawlerCannotUseLeavesEveryReferenceToTheGeneralPath() {
    ReferenceResolver resolver = normalizer.resolverFor("ftp://example.com/pub/");
    assertNull(resolver.base());
    assertEquals("http://example.com/x", resolver.resolveOrNull("http://example.com/x").toString());
    assertNull(resolver.resolveOrNull("file.txt"));
  }

  @Test
  void aBaseLongerThanTheLimitIsNotGivenBackForAnEmptyReference() {
    UrlNormalizer strict = new UrlNormalizer(30, true); // the limit lowered since the page was queued
    String base = "http://a.com/" + "x".repeat(40);
    ReferenceResolver resolver = strict.resolverFor(base);
    for (String reference : List.of("", "#top")) {
      assertNull(strict.resolveOrNull(base, reference));
      assertNull(resolver.resolveOrNull(reference), reference);
    }
    assertEquals("http://a.com/y", resolver.resolveOrNull("/y").toString());
  }

  private static void assertTrue(boolean condition, String message) {
    org.junit.jupiter.api.Assertions.assertTrue(condition, message);
  }
}

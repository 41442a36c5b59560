package io.sievecrawl.crawler.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Links lead where they lead in a browser: the WHATWG URL standard's parsing of http(s) URLs, case by case, and the
 * crawler's own refusals said with their reason.
 */
class BrowserReadingTest {
  private static final String PAGE = "http://example.com/a/page.html";

  private final UrlNormalizer normalizer = new UrlNormalizer(2048, true);

  private String resolve(String reference) throws InvalidUrlException {
    return normalizer.resolve(PAGE, reference);
  }

  private String refusal(String reference) {
    return assertThrows(InvalidUrlException.class, () -> resolve(reference), reference).getMessage();
  }

  @Test
  void onlyC0ControlsAndSpacesAroundAUrlAreTrimmed() throws InvalidUrlException {
    assertEquals("http://other.example/", resolve("\u0001http://other.example/"));
    assertEquals("http://other.example/", resolve("\u0000 \u001fhttp://other.example/ \u0007"));
    // Other white space is part of the reference, which is then a relative path on the page's site.
    assertEquals("http://example.com/a/%E3%80%80http://other.example/", resolve("\u3000http://other.example/"));
    assertEquals("http://example.com/a/%C2%A0http://other.example/", resolve("\u00a0http://other.example/"));
    assertEquals("http://example.com/a/b%C2%A0", resolve("b\u00a0"));
  }

  @Test
  void tabsAndNewlinesAnywhereAreRemoved() throws InvalidUrlException {
    assertEquals("http://other.example/xy", resolve("ht\ttp://oth\ner.exa\rmple/x\ty"));
  }

  @Test
  void anotherSpecialSchemeWithoutSlashesStillNamesAHost() throws InvalidUrlException {
    assertEquals("https://example.org/", resolve("https:example.org/"));
    assertEquals("https://example.org/x", resolve("https:/example.org/x"));
    assertEquals("https://example.org/x", resolve("https:\\\\example.org\\x"));
    // The page's own scheme without slashes is a relative reference, as browsers read it.
    assertEquals("http://example.com/a/g", resolve("http:g"));
    assertEquals("http://example.com/g", resolve("http:/g"));
    assertEquals("http://g/", resolve("http:\\\\g"));
  }

  @Test
  void anyRunOfSlashesAndBackslashesLeadsToTheHost() throws InvalidUrlException {
    assertEquals("http://example.org/path", resolve("///example.org/path"));
    assertEquals("http://example.org/path", resolve("/\\/\\//example.org/../path"));
    assertEquals("http://test/", resolve("///\\//\\//test"));
    assertEquals("https://example.org/", normalizer.normalize("https:////example.org"));
    assertEquals("http://path/", normalizer.normalize("http:///path"));
  }

  @Test
  void labelsMayBeginAndEndWithAHyphen() throws InvalidUrlException {
    assertEquals("http://-x-.example/", resolve("http://-x-.example/"));
    assertEquals("http://ab--c.example/", resolve("http://AB--c.example/"));
    assertEquals("http://x-.xn--zca.example/", resolve("http://x-.ß.example/"));
  }

  @Test
  void internationalNamesFollowTheCurrentUts46Tables() throws InvalidUrlException {
    assertEquals("http://xn--fa-hia.de/", resolve("http://faß.de/")); // non-transitional: not fass.de
    assertEquals("http://xn--rkj.example/", resolve("http://\u10a0.example/")); // Georgian capital, mapped since Unicode 15.1
    assertEquals("http://example.com/", resolve("http://ｅｘａｍｐｌｅ．ｃｏｍ/")); // full-width forms
    assertTrue(refusal("http://a\u200cb.example/").startsWith("invalid international host name"),
        "a zero-width non-joiner outside a joining context (CheckJoiners)");
    assertTrue(refusal("http://\u0301a.example/").startsWith("invalid international host name"),
        "a label that starts with a combining mark");
  }

  @Test
  void anAsciiHostIsNeverDecodedIntoAnotherName() throws InvalidUrlException {
    // xn--google- decodes to plain "google": a page must not make the crawler fetch a site it never linked.
    String refused = refusal("http://xn--google-.com/");
    assertTrue(refused.contains("cannot be fetched"), refused);
    assertEquals("http://xn--zca.example/", resolve("http://XN--ZCA.example/"));
    assertEquals("http://xn--fa-hia.de/", resolve("http://xn--fa-hia.de/"));
  }

  @Test
  void trailingDotsAreDroppedWhateverFullStopWroteThem() throws InvalidUrlException {
    assertEquals("http://example.com/", resolve("http://example.com./"));
    assertEquals("http://example.com/", resolve("http://example.com\u3002/"));
    assertEquals("http://example.com/", resolve("http://example\u3002com\uff0e/"));
  }

  @Test
  void aPortMayHaveLeadingZeros() throws InvalidUrlException {
    assertEquals("http://example.com/", resolve("http://example.com:000080/"));
    assertEquals("http://example.com:8080/", resolve("http://example.com:00000000000008080/"));
    assertEquals("invalid port '65536'", refusal("http://example.com:65536/"));
    assertEquals("invalid port '0'", refusal("http://example.com:0000/"));
  }

  @Test
  void aLoneSurrogateIsWrittenAsTheReplacementCharacter() throws InvalidUrlException {
    assertEquals("http://example.com/%EF%BF%BDv", resolve("/\ud800v"));
    assertEquals("http://example.com/%EF%BF%BDv?%EF%BF%BDw", resolve("/\udc00v?\ud800w"));
    assertEquals("http://example.com/%F0%9F%98%80", resolve("/\ud83d\ude00"), "a pair is one character");
    assertEquals("http://example.com/%EF%BF%BD%EF%BF%BD", resolve("/\ud800\t\udc00"),
        "surrogates are read before tabs are removed");
  }

  @Test
  void anApostropheInAQueryIsEncodedAsBrowsersSendIt() throws InvalidUrlException {
    assertEquals("http://example.com/a/page.html?q=%27x%27", resolve("?q='x'"));
    assertEquals("http://example.com/it's", resolve("/it's"));
  }

  @Test
  void percentEncodedDotSegmentsAreDotSegments() throws InvalidUrlException {
    assertEquals("http://example.com/x", resolve("/a/%2e%2E/x"));
    assertEquals("http://example.com/a/x", resolve(".%2e/a/%2e/x"));
    assertEquals("http://example.com/a/...", resolve("..."));
  }

  @Test
  void userInfoIsDroppedButAnEmptyHostAfterItIsRefused() throws InvalidUrlException {
    assertEquals("http://example.org/", resolve("http://user:pass@example.org/"));
    assertEquals("http://www.example.com/", normalizer.normalize("http:a:b@www.example.com"));
    assertEquals("http://example.com/a/a:b@www.example.com", resolve("http:a:b@www.example.com"), "relative");
    assertEquals("no host", refusal("http://user@/"));
  }

  @Test
  void aHostNoDnsNameCanBeIsRefusedSayingSo() {
    for (String url : List.of("http://a..b/", "http://a*b.example/", "http://" + "a".repeat(64) + ".example/",
        "http://./")) {
      assertTrue(refusal(url).contains("is not a DNS name"), url);
    }
  }

  @Test
  void hostsThatTheStandardForbidsAreRefused() {
    for (String url : List.of("http://a<b/", "http://a%00b/", "http://a%25b/", "http://ex ample/", "http://a|b/")) {
      assertTrue(refusal(url).startsWith("invalid host"), url);
    }
  }

  @Test
  void onlyAsciiHexDigitsMakeAnEscape() throws InvalidUrlException {
    assertTrue(refusal("http://%\u0664\u0661.com/").startsWith("invalid "), "not a.com");
    assertTrue(refusal("http://%\uff14\uff11.com/").startsWith("invalid "), "not a.com");
    assertEquals("http://example.com/%25%EF%BC%94%EF%BC%91", resolve("/%\uff14\uff11"));
    assertEquals("http://example.com/%251%D9%A1", resolve("/%1\u0661"));
  }

  @Test
  void aQueryInTheDocumentsEncodingKeepsTheAsciiBytesOfItsCharactersRaw() throws InvalidUrlException {
    Url url = normalizer.resolverFor(PAGE, io.sievecrawl.crawler.encoding.WebEncoding.forLabel("Shift_JIS")).resolveOrNull("?\uff0e");
    assertEquals("http://example.com/a/page.html?%81D", url.toString(), "as browsers send it");
    assertEquals(url.toString(), normalizer.normalize(url.toString()));
  }

  @Test
  void aBaseThatLosesASessionIdStillResolvesAsWritten() throws InvalidUrlException {
    for (String base : List.of("http://h/a/..;jsessionid=1", "http://h/a/.;jsessionid=1/c")) {
      for (String reference : List.of("b", "../b", "?q", "")) {
        assertEquals(normalizer.resolve(base, reference),
            normalizer.resolverFor(base).resolveOrNull(reference).toString(), base + " + " + reference);
      }
    }
    assertEquals("http://h/a/b", normalizer.resolve("http://h/a/..;jsessionid=1", "b"), "no dot segment as written");
  }

  @Test
  void aBaseQueryIsInTheDocumentsEncodingForEveryReference() throws InvalidUrlException {
    io.sievecrawl.crawler.encoding.WebEncoding latin = io.sievecrawl.crawler.encoding.WebEncoding.WINDOWS_1252;
    ReferenceResolver resolver = normalizer.resolverFor("http://h/p?\u00e9", latin);
    for (String reference : List.of("", "#top", "http:")) {
      assertEquals("http://h/p?%E9", resolver.resolveOrNull(reference).toString(), reference);
    }
  }

  @Test
  void aBaseTheCrawlerCannotUseStillResolvesAbsoluteReferences() throws InvalidUrlException {
    assertEquals("http://example.org/x", normalizer.resolve("ftp://example.com/pub/", "http://example.org/x"));
    assertEquals("https://example.org/", normalizer.resolve("about:blank", "https:example.org"));
    assertThrows(InvalidUrlException.class, () -> normalizer.resolve("ftp://example.com/pub/", "file.txt"));
  }
}

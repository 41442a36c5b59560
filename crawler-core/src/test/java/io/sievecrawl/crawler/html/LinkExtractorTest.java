package io.sievecrawl.crawler.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinkExtractorTest {
  private final LinkExtractor extractor = new LinkExtractor(new UrlNormalizer(2048, true), true, "sievecrawl");

  private PageLinks extract(String html, String url) {
    return extractor.extract(html.getBytes(StandardCharsets.UTF_8), "utf-8", Url.ofCanonical(url), null);
  }

  @Test
  void followsAnchorsAreasFramesIframesPaginationAndMetaRefresh() {
    PageLinks links = extract("""
        <html><head>
          <link rel="next" href="/page/2"><link rel="stylesheet" href="/style.css">
          <link rel="canonical" href="https://example.com/canonical">
          <meta http-equiv="refresh" content="5; url='/refreshed'">
        </head><body>
          <a href="/a">a</a> <area href="b"> <iframe src="//other.example/embed"></iframe>
          <img src="/image.png"> <script src="/app.js"></script>
        </body></html>""", "https://example.com/dir/index.html");
    assertEquals(List.of("https://example.com/page/2", "https://example.com/canonical", "https://example.com/refreshed",
        "https://example.com/a", "https://example.com/dir/b", "https://other.example/embed"), links.links());
  }

  @Test
  void thePageTitleIsItsFirstTitleOutsideSvgWithWhiteSpaceCollapsed() {
    assertEquals("Caf\u00e9 & more", extract("<html><head><title>\n  Caf&eacute;  &amp;\tmore </title><title>second"
        + "</title></head><body><svg><title>a drawing</title></svg></body>", "http://example.com/").title());
    assertEquals("Only", extract("<svg><title>a drawing</title></svg><title>Only</title>", "http://example.com/")
        .title(), "an SVG's title names the drawing");
    assertEquals(null, extract("<p>no title</p>", "http://example.com/").title());
    assertEquals("<b>not markup</b>", extract("<title><b>not markup</b></title>", "http://example.com/").title(),
        "a title is text: a tag in it is its text");
  }

  @Test
  void followsTheFramesOfAFrameset() {
    PageLinks links = extract("<html><frameset cols=\"50%,50%\"><frame src=\"left.html\"><frame src=\"/right.html\">"
        + "</frameset></html>", "http://example.com/f/");
    assertEquals(List.of("http://example.com/f/left.html", "http://example.com/right.html"), links.links());
  }

  @Test
  void resolvesAgainstBaseHref() {
    PageLinks links = extract("<head><base href=\"https://cdn.example.org/base/\"></head><a href=\"x\">x</a>",
        "https://example.com/page");
    assertEquals(List.of("https://cdn.example.org/base/x"), links.links());
  }

  @Test
  void dropsNonHttpSchemesAndDuplicates() {
    PageLinks links = extract("<a href=\"mailto:a@b.c\">m</a><a href=\"javascript:go()\">j</a><a href=\"tel:1\">t</a>"
        + "<a href=\"data:text/html,x\">d</a><a href=\"/same\">1</a><a href=\"/same#frag\">2</a>",
        "http://example.com/");
    assertEquals(List.of("http://example.com/same"), links.links());
    assertEquals(6, links.found());
  }

  @Test
  void honorsRelNofollowAndMetaRobots() {
    assertEquals(List.of("http://example.com/b"), extract(
        "<a href=\"/a\" rel=\"nofollow\">a</a><a href=\"/b\" rel=\"noopener\">b</a>", "http://example.com/").links());
    PageLinks none = extract("<meta name=\"robots\" content=\"noindex, nofollow\"><a href=\"/a\">a</a>",
        "http://example.com/");
    assertTrue(none.nofollow());
    assertEquals(List.of(), none.links());
    assertEquals(List.of(), extract("<meta name=\"sievecrawl\" content=\"none\"><a href=\"/a\">a</a>",
        "http://example.com/").links());
    assertEquals(List.of(), extractor.extract("<a href=\"/a\">a</a>".getBytes(StandardCharsets.UTF_8), null,
        Url.ofCanonical("http://example.com/"), "noindex, nofollow").links());
  }

  @Test
  void nofollowCanBeIgnoredWhenConfigured() {
    LinkExtractor ignoring = new LinkExtractor(new UrlNormalizer(2048, true), false, "sievecrawl");
    assertEquals(List.of("http://example.com/a"), ignoring.extract(
        "<meta name=\"robots\" content=\"nofollow\"><a href=\"/a\" rel=\"nofollow\">a</a>".getBytes(StandardCharsets.UTF_8),
        null, Url.ofCanonical("http://example.com/"), null).links());
  }

  @Test
  void detectsTheCharsetFromMetaOrBomWhenTheHeaderHasNone() {
    byte[] latin = "<meta charset=\"iso-8859-1\"><a href=\"/caf\u00e9\">x</a>".getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(List.of("http://example.com/caf%C3%A9"),
        extractor.extract(latin, null, Url.ofCanonical("http://example.com/"), null).links());
    byte[] bom = ("\uFEFF<a href=\"/\u00fcber\">x</a>").getBytes(StandardCharsets.UTF_8);
    assertEquals(List.of("http://example.com/%C3%BCber"), extractor.extract(bom, null,
        Url.ofCanonical("http://example.com/"), null).links());
    assertEquals(List.of("http://example.com/caf%C3%A9"),
        extractor.extract(latin, "no-such-charset", Url.ofCanonical("http://example.com/"), null).links());
  }

  @Test
  void anUndeclaredPageThatIsNoUtf8IsReadAsWindows1252() {
    byte[] latin = "<a href=\"/nc/caf\u00e9.html\">x</a>".getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(List.of("http://example.com/nc/caf%C3%A9.html"),
        extractor.extract(latin, null,
            Url.ofCanonical("http://example.com/"), null).links(), "not /nc/caf%EF%BF%BD.html");
  }

  @Test
  void aQueryIsEncodedInThePagesEncodingAndItsPathInUtf8() {
    // a character that windows-1252 cannot hold is written as a reference
    String html = "<a href=\"/w/caf\u00e9.html?q=caf\u00e9&e=\u20ac&j=&#26085;\">x</a>";
    String expected = "http://example.com/w/caf%C3%A9.html?q=caf%E9&e=%80&j=%26%2326085%3B";
    assertEquals(List.of(expected), extractor.extract(("<meta charset=windows-1252>" + html)
        .getBytes(java.nio.charset.Charset.forName("windows-1252")), null,
            Url.ofCanonical("http://example.com/"), null).links());
    assertEquals(List.of(expected), extractor.extract(html.getBytes(java.nio.charset.Charset.forName("windows-1252")),
        "iso-8859-1",
            Url.ofCanonical("http://example.com/"), null).links(), "a Latin-1 header means windows-1252");
    assertEquals(List.of("http://example.com/w/caf%C3%A9.html?q=caf%C3%A9&e=%E2%82%AC&j=%E6%97%A5"),
        extractor.extract(html.getBytes(StandardCharsets.UTF_8), "utf-8",
            Url.ofCanonical("http://example.com/"), null).links());
    assertEquals(List.of("http://example.com/w/caf%C3%83%C2%A9.html?q=caf%C3%A9&e=%E2%82%AC&j=%26%2326085%3B"),
        extractor.extract(html.getBytes(StandardCharsets.UTF_8), null,
            Url.ofCanonical("http://example.com/"), null).links(), "undeclared UTF-8 is windows-1252, as in Chromium");
    assertEquals(List.of("http://example.com/s?q=%82%A0"), extractor.extract("<a href=\"/s?q=\u3042\">x</a>"
        .getBytes(java.nio.charset.Charset.forName("shift_jis")), "shift_jis",
            Url.ofCanonical("http://example.com/"), null).links());
  }

  @Test
  void relAndRobotsTokensMatchWhateverTheirCaseAndWhitespace() {
    PageLinks links = extract("<link rel=\"  Stylesheet\tNEXT \" href=\"/n\"><a href=\"/a\" rel=\"external\nNoFollow\">a</a>"
        + "<a href=\"/b\" rel=\"nofollowing\">b</a>", "http://example.com/");
    assertEquals(List.of("http://example.com/n", "http://example.com/b"), links.links());
    assertEquals(3, links.found()); // the nofollow link is found, not followed
    assertTrue(extract("<meta name=\"ROBOTS\" content=\"index,NOFOLLOW\"><a href=\"/a\">a</a>",
        "http://example.com/").nofollow());
  }

  @Test
  void linksComeAsParsedUrlValues() {
    PageLinks links = extract("<a href=\"/a?b=c\">a</a><a href=\"https://other.example:8443/x\">x</a>",
        "http://example.com/dir/");
    assertEquals("http://example.com", links.urls().get(0).origin());
    assertEquals("b=c", links.urls().get(0).query());
    assertEquals("other.example", links.urls().get(1).host());
    assertEquals(8443, links.urls().get(1).port());
  }

  @Test
  void metaRefreshIsReadAsTheHtmlStandardSays() {
    assertEquals(List.of("http://example.com/next"), extract(
        "<meta http-equiv=\"Refresh\" content=\"3 /next\">", "http://example.com/").links());
    assertEquals(List.of("http://example.com/a%20b"), extract(
        "<meta http-equiv=\"refresh\" content='0; URL=\"/a b\"'>", "http://example.com/").links());
    assertEquals(List.of(), extract( // no time: not a refresh
        "<meta http-equiv=\"refresh\" content=\"url=/x\">", "http://example.com/").links());
  }

  @Test
  void aJavascriptBaseHrefIsIgnoredAndAnotherSchemesLeavesOnlyAbsoluteLinks() {
    assertEquals(List.of("https://example.org/y"), extract(
        "<head><base href=\"ftp://files.example.com/pub/\"></head><a href=\"x\">x</a><a href=\"https://example.org/y\">y</a>",
        "https://example.com/dir/page").links(), "as in Chromium, x is ftp://files.example.com/pub/x");
    assertEquals(List.of("https://example.com/dir/x"), extract(
        "<head><base href=\"javascript:void(0)\"></head><a href=\"x\">x</a>", "https://example.com/dir/page").links());
    assertEquals(List.of("https://example.com/other/x"), extract( // a relative base is resolved first
        "<head><base href=\"/other/\"></head><a href=\"x\">x</a>", "https://example.com/dir/page").links());
  }

  @Test
  void followsSvgLinksButNotXlinkHrefOutsideSvg() {
    PageLinks links = extract("<svg><a xlink:href=\"/svg-old\"><text>a</text></a>"
        + "<a href=\"/svg2\" xlink:href=\"/ignored\"><text>b</text></a></svg>"
        + "<a xlink:href=\"/not-svg\">c</a>", "http://example.com/");
    assertEquals(List.of("http://example.com/svg-old", "http://example.com/svg2"), links.links());
  }

  @Test
  void hostsAreReadAsBrowsersReadThem() {
    PageLinks links = extract("<a href=\"http://fa\u00df.de/\">a</a><a href=\"http://0x7f.1:8080/\">b</a>"
        + "<a href=\"http://[::ffff:127.0.0.1]/\">c</a>", "http://example.com/");
    // An IPv4-mapped address is the IPv4 address the client connects to.
    assertEquals(List.of("http://xn--fa-hia.de/", "http://127.0.0.1:8080/", "http://127.0.0.1/"), links.links());
  }

  @Test
  void aPageWithMoreLinksThanTheCapYieldsTheFirstOnesAndCountsTheRest() {
    StringBuilder html = new StringBuilder("<html><body>");
    for (int i = 0; i < 50; i++) {
      html.append("<a href=\"/p").append(i).append("\">x</a><a href=\"/p").append(i).append("\">again</a>");
    }
    LinkExtractor capped = new LinkExtractor(new io.sievecrawl.crawler.url.UrlNormalizer(2048, true), true,
        "sievecrawl", 10);
    PageLinks page = capped.extract(html.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), "utf-8",
        Url.ofCanonical("https://a.example/"), null);
    assertEquals(10, page.links().size());
    assertEquals("https://a.example/p0", page.links().get(0));
    assertEquals("https://a.example/p9", page.links().get(9));
    assertEquals(100, page.found());
    assertEquals(100 - 19, page.overCap(), "the links after the tenth distinct one (the 19th raw link) are not resolved");
  }
}

package io.sievecrawl.crawler.html;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A page's requisites: every element and rule that makes a browser fetch something to show the page. */
class RequisiteFinderTest {
  private static final Url PAGE = Url.ofCanonical("https://example.com/docs/page.html");

  private static PageLinks extract(String html, boolean nofollow) {
    return new LinkExtractor(new UrlNormalizer(2048, true), true, "sievecrawl", 1000)
        .extract(html.getBytes(StandardCharsets.UTF_8), "utf-8", PAGE, nofollow ? "nofollow" : null, false, true);
  }

  private static List<String> requisites(String html) {
    return extract(html, false).requisites().stream().map(Url::toString).toList();
  }

  @Test
  void everyElementAndRuleThatAPageNeeds() {
    assertEquals(List.of(
        "https://example.com/docs/style.css", "https://example.com/favicon.ico", "https://example.com/apple.png",
        "https://example.com/docs/font.woff2", "https://example.com/docs/mod.js", "https://example.com/manifest.json",
        "https://example.com/docs/app.js", "https://example.com/docs/inline-bg.png",
        "https://example.com/docs/body-bg.gif", "https://example.com/docs/img.png",
        "https://example.com/docs/img-1x.png", "https://example.com/docs/img-2x.png",
        "https://example.com/docs/pic.webp", "https://example.com/docs/pic-2x.webp", "https://example.com/docs/pic.png",
        "https://example.com/docs/movie.mp4", "https://example.com/docs/poster.jpg",
        "https://example.com/docs/movie.webm", "https://example.com/docs/subs.vtt",
        "https://example.com/docs/sound.mp3", "https://example.com/docs/object.svg",
        "https://example.com/docs/embed.swf", "https://example.com/docs/go.png",
        "https://example.com/docs/svg-image.png", "https://example.com/docs/styled.png", "https://cdn.example/lib.js"),
        requisites("""
            <html><head>
            <link rel="stylesheet" href="style.css"><link rel="shortcut icon" href="/favicon.ico">
            <link rel="apple-touch-icon" href="/apple.png"><link rel="preload" href="font.woff2" as="font">
            <link rel="modulepreload" href="mod.js"><link rel="manifest" href="/manifest.json">
            <link rel="next" href="next.html"><link rel="alternate" href="feed.xml">
            <script src="app.js"></script>
            <style>body { background: url(inline-bg.png) }</style>
            </head><body background="body-bg.gif">
            <img src="img.png" srcset="img-1x.png 1x, img-2x.png 2x">
            <picture><source srcset="pic.webp, pic-2x.webp 2x" type="image/webp"><img src="pic.png"></picture>
            <video src="movie.mp4" poster="poster.jpg"><source src="movie.webm"><track src="subs.vtt"></video>
            <audio src="sound.mp3"></audio>
            <object data="object.svg"></object><embed src="embed.swf">
            <form><input type="image" src="go.png"><input type="text" src="not.png"></form>
            <svg><image href="svg-image.png"/></svg>
            <p style="background-image: url('styled.png')">text</p>
            <script src="https://cdn.example/lib.js"></script>
            <a href="link.html">a link is no requisite</a><iframe src="frame.html"></iframe>
            </body></html>"""));
  }

  @Test
  void aSrcsetIsSplitAsTheHtmlStandardSplitsItCommasInUrlsIncluded() {
    assertEquals(List.of("https://example.com/docs/a,b.png", "https://example.com/docs/c.png",
        "https://example.com/docs/d.png"), requisites("<img srcset=\"a,b.png 1x,c.png  2x , d.png\">"));
    assertEquals(List.of("https://example.com/docs/e.png", "https://example.com/docs/f.png"),
        requisites("<img srcset=\"e.png (max-width: 1px, odd) 100w, f.png\">"), "a comma inside descriptors");
  }

  @Test
  void requisitesResolveAgainstTheBaseAreEachOnceAndComeEvenFromANofollowPage() {
    PageLinks page = extract("<base href=\"https://static.example/v2/\"><img src=\"a.png\"><img src=\"a.png\">"
        + "<a href=\"x.html\">x</a>", true);
    assertEquals(List.of("https://static.example/v2/a.png"), page.requisites().stream().map(Url::toString).toList());
    assertEquals(List.of(), page.urls(), "nofollow is about links: the page still needs its image");
  }

  @Test
  void withoutAskingThereAreNone() {
    PageLinks page = new LinkExtractor(new UrlNormalizer(2048, true), true, "sievecrawl")
        .extract("<img src=a.png>".getBytes(StandardCharsets.UTF_8), "utf-8", PAGE, null, false);
    assertEquals(List.of(), page.requisites());
  }

  @Test
  void aPageOfMoreRequisitesThanTheCapCountsTheRest() {
    StringBuilder html = new StringBuilder();
    for (int i = 0; i < 1005; i++) {
      html.append("<img src=\"i").append(i).append(".png\">");
    }
    PageLinks page = extract(html.toString(), false);
    assertEquals(1000, page.requisites().size());
    assertEquals(5, page.requisitesOverCap());
  }
}

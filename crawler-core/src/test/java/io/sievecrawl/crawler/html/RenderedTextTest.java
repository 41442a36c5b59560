package io.sievecrawl.crawler.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * --text reads as a browser renders the page. The oracle is Debian's headless Chromium: {@code text/inner-text.sh}
 * wrote its {@code document.body.innerText} of {@code text/every-element.html} (a page holding every HTML element)
 * to {@code text/every-element.innertext.txt}, which is compared here with white space collapsed.
 */
class RenderedTextTest {
  private static final UrlNormalizer NORMALIZER = new UrlNormalizer(2048, true);

  private static String text(String html) {
    return new LinkExtractor(NORMALIZER, true, "sievecrawl")
        .extract(html.getBytes(StandardCharsets.UTF_8), "utf-8", Url.ofCanonical("http://example.com/"), null, true)
        .text();
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = RenderedTextTest.class.getResourceAsStream("/text/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /**
   * White space collapsed as the tests compare it: runs of spaces, tabs and no-break spaces one space, lines
   * trimmed, none empty.
   */
  static String collapsed(String text) {
    return text.lines().map(l -> l.replaceAll("[ \\t\\r\\f\u00a0]+", " ").strip())
        .filter(l -> !l.isEmpty()).collect(Collectors.joining("\n"));
  }

  @Test
  void aPageOfEveryElementReadsAsChromiumRendersIt() throws IOException {
    String chromium = collapsed(resource("every-element.innertext.txt"));
    assertEquals(chromium, text(resource("every-element.html")));
  }

  @Test
  void blocksAreLinesAndInlineElementsJoinAsRendered() {
    assertEquals("one\ntwo", text("<h2>one</h2><h2>two</h2>"));
    assertEquals("Word", text("<p><b>W</b>ord</p>"));
    assertEquals("a b", text("<p>a <b> b</b></p>"), "a run of white space across elements is one space");
    assertEquals("Table\nPrev Up\nChapter", text("<table><tr><th colspan=3>Table</th></tr>"
        + "<tr><td><a href=p>Prev</a></td><td><a href=u>Up</a></td></tr><tr><td>Chapter</td></tr></table>"));
    assertEquals("line\nbreak", text("line<br>break"));
  }

  @Test
  void whatBrowsersDoNotShowIsLeftOut() {
    assertEquals("shown", text("<noscript>no</noscript><template>no</template><script>no</script>"
        + "<style>no</style><p hidden>no</p><div style='color:red; DISPLAY : none'>no</div><p>shown</p>"));
    assertEquals("Summary", text("<details><summary>Summary</summary>closed</details>"));
  }

  @Test
  void contentInAHeadWithoutBodyIsShownAsTheHtmlParserMovesItToTheBody() {
    assertEquals("Text after the title", text("<html><head><title>T</title><p>Text after the title"));
  }

  @Test
  void anInlineStyleHidesOnlyWithDisplayNone() {
    assertTrue(RenderedText.hidesItself("display:none"));
    assertTrue(RenderedText.hidesItself("color: red;display :  NONE !important"));
    assertFalse(RenderedText.hidesItself("display: none-ish"));
    assertFalse(RenderedText.hidesItself("display: block; --none: 1"));
  }
}

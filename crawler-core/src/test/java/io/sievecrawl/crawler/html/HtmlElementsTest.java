package io.sievecrawl.crawler.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.parser.ParseSettings;
import org.jsoup.parser.Parser;
import org.jsoup.parser.TagSet;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The crawler's parse ({@link HtmlElements}) finds the links jsoup's HTML5 parse finds, on markup where the two could
 * part: text elements, misnested and unclosed elements, tables, frames, SVG, a late or relative {@code <base>}.
 */
class HtmlElementsTest {
  private static final String PAGE = "https://example.com/dir/page.html";
  private static final UrlNormalizer NORMALIZER = new UrlNormalizer(2048, true);

  private final LinkExtractor crawler = new LinkExtractor(NORMALIZER, true, "sievecrawl");
  private final LinkExtractor html5 = new LinkExtractor(NORMALIZER, true, "sievecrawl", Integer.MAX_VALUE,
      (html, pageUrl, keepText, listener) -> html5Walk(html, pageUrl, listener));

  /**
   * jsoup's HTML5 parse as the reference, with the document's base URI put back to the page's URL: the parser sets it
   * from the first {@code <base href>}, and LinkExtractor resolves that href against the document's base URI itself.
   */
  static Document html5Parse(String html, String pageUrl) {
    Document doc = Parser.htmlParser().parseInput(html, pageUrl);
    doc.setBaseUri(pageUrl);
    return doc;
  }

  /** {@link #html5Parse}, then a walk over its tree telling {@code listener} of each node: LinkExtractor's parser. */
  static Document html5Walk(String html, String pageUrl, NodeVisitor listener) {
    Document doc = html5Parse(html, pageUrl);
    NodeTraversor.traverse(listener, doc);
    return doc;
  }

  static Stream<String> pages() {
    return Stream.of(
        "<a href=/plain>x</a>",
        "<A HREF='/upper' REL=NOFOLLOW>x</A><a href=/b href=/second-ignored>y</a>",
        "<a href=/q?a=1&amp;b=2&copy=3&notanentity>x</a><a href=\"/e&#x41;&#66;\">y</a>",
        "<script>var s = '<a href=\"/in-script\">'; if (a < b) {}</script><a href=/after-script>x</a>",
        "<script><!-- document.write('<a href=/in-comment>') --></script><a href=/after>x</a>",
        "<style>a[href='</b>'] { } <a href=/in-style></style><a href=/after-style>x</a>",
        "<title><a href=/in-title></title><textarea><a href=/in-textarea></textarea><a href=/after>x</a>",
        "<xmp><a href=/in-xmp></xmp><noembed><a href=/in-noembed></noembed><a href=/after>x</a>",
        "<iframe src=/frame-src><a href=/in-iframe></iframe><noframes><a href=/in-noframes></noframes>",
        "<noscript><a href=/in-noscript>x</a></noscript><template><a href=/in-template>y</a></template>",
        "<!-- <a href=/in-comment> --><a href=/after-comment>x</a><!--> <a href=/after-abrupt-comment>",
        "<?php echo '<a href=\"/in-php\">' ?><a href=/after-php>x</a>",
        "<p>unclosed<p><a href=/p1>a<div><a href=/nested>b</a></div><li><a href=/li>c",
        "<table><a href=/fostered>x</a><tr><td><a href=/cell>y</a></td></tr></table>",
        "<b><a href=/misnested>1<div>2</b>3</a>4</div><a href=/x1><a href=/x2>nested</a></a>",
        "<a href=1><a href=2><p><a href=3></p></a>",
        "<frameset><frame src=/left><frameset><frame src=/inner></frameset></frameset>",
        "<body><frame src=/stray-frame><a href=/body-link>x</a>",
        "<svg><a xlink:href=/svg-old><text>a</text></a>"
            + "<foreignObject><a xlink:href=/html-a>b</a></foreignObject></svg>",
        "<svg viewBox='0 0 1 1'><a href=/svg2 xlink:href=/ignored><rect/></a></svg><a xlink:href=/not-svg>c</a>",
        "<math><mi><a href=/in-math>x</a></mi></math>",
        "<a href=/before-base>x</a><base href=sub/><a href=/after-base>y</a><a href=rel>z</a><base href=/second/>",
        "<base target=_top><base href='//cdn.example.org/b/'><a href=x>x</a>",
        "<head><meta name=ROBOTS content='index, NoFollow'></head><a href=/x>x</a>",
        "<a href=/a rel='external nofollow'>x</a><link rel='Next' href=/n><link rel=icon href=/i.ico>",
        "<meta http-equiv=Refresh content='0; URL=/refreshed'><meta content='3;url=/no-http-equiv'>",
        "<a href='/unterminated",
        "<a href=/eof-in-tag",
        "<div/><a/><a href=/self-closed/>x</a><br/><img src=/i.png/><a href=/after-void>y</a>",
        "<html><body><a href=/x>x</a></body></html><a href=/after-html>y</a>",
        "<area href=/area><map><area href=/in-map nohref></map>");
  }

  @ParameterizedTest
  @MethodSource("pages")
  void findsTheLinksOfTheHtml5Parse(String html) {
    assertEquals(extract(html5, html), extract(crawler, html));
  }

  /**
   * The trimmed tree builder ({@link org.jsoup.parser.LinkTreeBuilder}) opens the elements, with the attributes and
   * nesting, that jsoup's plain XML tree builder opens under the same settings and tags, with or without the text.
   */
  @ParameterizedTest
  @MethodSource("pagesAndOddMarkup")
  void opensTheElementsOfJsoupsXmlTreeBuilder(String html) {
    String xml = outline(Parser.xmlParser().settings(ParseSettings.htmlDefault)
        .tagSet(new TagSet(HtmlElements.HTML_TEXT_AND_VOID_TAGS)).parseInput(html, PAGE));
    assertEquals(xml, outline(HtmlElements.parse(html, PAGE, false)));
    assertEquals(xml, outline(HtmlElements.parse(html, PAGE, true)));
  }

  /**
   * Without the text, the crawl builds no tree: it hears each element open and close as the parse goes. What it hears
   * is the tree's elements, in document order, each opened inside the elements its parents are, and closed once; and
   * a title or style element still holds its text.
   */
  @ParameterizedTest
  @MethodSource("pagesAndOddMarkup")
  void aListenerHearsTheTreesElementsOpenAndCloseInDocumentOrder(String html) {
    StringBuilder heard = new StringBuilder("#root\n"); // as outline writes the document
    List<Element> open = new java.util.ArrayList<>();
    Document document = HtmlElements.parse(html, PAGE, false, new NodeVisitor() {
      @Override
      public void head(Node node, int depth) {
        if (node instanceof Element e && !(node instanceof Document)) {
          heard.append("  ".repeat(open.size())).append(e.normalName());
          for (Attribute a : e.attributes()) {
            heard.append(' ').append(a.getKey()).append('=').append(a.getValue());
          }
          heard.append('\n');
          open.add(e);
        }
      }

      @Override
      public void tail(Node node, int depth) {
        if (node instanceof Element e && !(node instanceof Document)) {
          assertSame(open.remove(open.size() - 1), e);
        }
      }
    });
    assertEquals(outline(HtmlElements.parse(html, PAGE, false)), heard.toString());
    assertEquals(List.of(), open);
    assertEquals(0, document.childNodeSize());
  }

  @Test
  void aListenerStillFindsTheTextOfTitleAndStyleWhenTheyClose() {
    String html = "<title>The &amp; <b>title</title><p>x<style>p { background: url(a.png) }</style>";
    List<String> closed = new java.util.ArrayList<>();
    HtmlElements.parse(html, PAGE, false, new NodeVisitor() {
      @Override
      public void head(Node node, int depth) { }

      @Override
      public void tail(Node node, int depth) {
        if (node instanceof Element e && !(node instanceof Document)) {
          closed.add(e.normalName() + ":" + (e.normalName().equals("style") ? e.data() : e.text()));
        }
      }
    });
    assertEquals(List.of("title:The & <b>title", "style:p { background: url(a.png) }", "p:"), closed);
  }

  static Stream<String> pagesAndOddMarkup() {
    return Stream.concat(pages(), Stream.of(
        "<?xml version='1.0'?><!DOCTYPE html><html xmlns='http://www.w3.org/1999/xhtml' xmlns:x='urn:x'>"
            + "<x:a x:href=/prefixed href=/plain>a</x:a><svg xmlns='http://www.w3.org/2000/svg'><a xlink:href=/s>"
            + "</a></svg></html>",
        "<a href=/1 HREF=/dup Id=A>x</a><![CDATA[<a href=/in-cdata>]]><!-- c --><b/>text<i>more",
        "<div>".repeat(600) + "<a href=/deep>x</a>"));
  }

  @Test
  void withoutTextOnlyTheTitleAndStyleKeepTheirs() {
    String html = "<!DOCTYPE html><!-- note --><title>The &amp; title</title><style>p { background: url(a.png) }"
        + "</style><script>var s = 1;</script><p>Body <b>text</b></p><textarea>typed</textarea>";
    Document trimmed = HtmlElements.parse(html, PAGE, false);
    assertEquals("The & title", trimmed.selectFirst("title").text());
    assertEquals("p { background: url(a.png) }", trimmed.selectFirst("style").data());
    assertEquals("", trimmed.selectFirst("script").data());
    assertEquals("", trimmed.selectFirst("p").text());
    assertEquals("", trimmed.selectFirst("textarea").text());
    assertEquals(List.of(), trimmed.childNodes().stream().filter(n -> !(n instanceof Element)).toList());

    Document full = HtmlElements.parse(html, PAGE, true);
    assertEquals("var s = 1;", full.selectFirst("script").data());
    assertEquals("Body text", full.selectFirst("p").text());
    assertEquals("typed", full.selectFirst("textarea").text());
  }

  /** Each element as its name, attributes and depth, one a line, in document order. */
  private static String outline(Element root) {
    StringBuilder out = new StringBuilder();
    for (Element e : root.getAllElements()) {
      int depth = e.parents().size();
      out.append("  ".repeat(depth)).append(e.normalName());
      for (Attribute a : e.attributes()) {
        out.append(' ').append(a.getKey()).append('=').append(a.getValue());
      }
      out.append('\n');
    }
    return out.toString();
  }

  @Test
  void aPageNestedDeeperThanTheParsersLimitStillYieldsItsLinks() {
    String html = "<div>".repeat(100_000) + "<a href=/deep>x</a>" + "<p><span>".repeat(10_000) + "<a href=/deeper>";
    List<String> links = extract(crawler, html);
    assertEquals(List.of("https://example.com/deep", "https://example.com/deeper", "nofollow=false"), links);
    assertEquals(extract(html5, html), links);
  }

  @Test
  void theLinksFoundAreTheLinkElementsAsWritten() {
    // The HTML5 parse reopens an <a> that a block element cut in two, and jsoup's tree holds the copies: 4 there.
    String html = "<a href=1>one<a href=2>two<p><a href=3>three</p></a>";
    assertEquals(3, crawler.extract(html.getBytes(StandardCharsets.UTF_8), "utf-8",
        Url.ofCanonical(PAGE), null).found());
  }

  @Test
  void linksInsideASelectAreFollowedWhereHtml5DropsThem() {
    // jsoup's HTML5 rules drop all but a select's options, and all that follows a select left open but a few tags
    String html = "<select><option>1<a href=/in-select>x</a></select><a href=/after>y</a><select><p><a href=/open>";
    assertEquals(List.of("https://example.com/after", "nofollow=false"), extract(html5, html));
    assertEquals(List.of("https://example.com/in-select", "https://example.com/after", "https://example.com/open",
        "nofollow=false"), extract(crawler, html));
  }

  /** The page's links in order and its nofollow. */
  private static List<String> extract(LinkExtractor extractor, String html) {
    PageLinks links = extractor.extract(html.getBytes(StandardCharsets.UTF_8), "utf-8",
        Url.ofCanonical(PAGE), null);
    return Stream.concat(links.links().stream(), Stream.of("nofollow=" + links.nofollow())).toList();
  }
}

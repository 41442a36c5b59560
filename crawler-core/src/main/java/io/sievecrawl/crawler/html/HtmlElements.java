package io.sievecrawl.crawler.html;

import org.jsoup.nodes.Document;
import org.jsoup.parser.ParseSettings;
import org.jsoup.parser.LinkTreeBuilder;
import org.jsoup.parser.Parser;
import org.jsoup.parser.Tag;
import org.jsoup.parser.TagSet;
import org.jsoup.select.NodeVisitor;

/**
 * Parses an HTML page into the elements its markup opens, in document order, for finding links: jsoup's HTML
 * tokenizer, with jsoup's plain tree builder ({@link LinkTreeBuilder}, without namespaces, comments, and the text
 * nobody asked for) instead of the HTML5 tree-construction rules.
 *
 * <p>Thread-safe: every call has a parser of its own.
 */
final class HtmlElements {
  /*
   * Why not jsoup's HTML parser. Which links a page holds is decided by its tokens: which text is markup and what
   * each start tag's attributes say. The HTML5 tree builder then moves elements about (foster parenting, the adoption
   * agency, implied and closed elements), which changes where an element sits but not whether it exists, and costs
   * 6 to 11% of a crawl's CPU per page (issue 9, see crawler-core/README.md).
   *
   * What the tree builder decides for the tokenizer is kept: the content of script, style, iframe, noembed,
   * noframes, xmp and plaintext is raw text and that of title and textarea is escapable text, so markup inside
   * them is no element; void elements (img, meta, link, ...) are closed at once; tag and attribute names are lower
   * case and the first of two equal attributes wins. Where the HTML rules drop an element, LinkExtractor applies
   * them itself: a frame counts only inside a frameset, xlink:href only inside svg (not in its foreignObject), and
   * the first <base href> is looked up rather than set by the parser.
   *
   * Checked against jsoup's HTML5 parse by HtmlElementsTest, and by LinkParseDifferences over 20,742 documents (the
   * OpenJDK, Python, PostgreSQL, Apache, Git and libstdc++ manuals, 130 news and blog pages saved by Mozilla's
   * Readability tests, html5lib's tree-construction tests): the same links on every one. Known differences, in
   * markup browsers treat as errors: an <a> that a block element cuts in two is counted once, where the HTML5 tree
   * holds a copy; links inside a <select> are followed, where jsoup drops all but its options (and, if the select is
   * left open, nearly all that follows); a CDATA section outside svg and math is a comment up to the first '>' in
   * HTML and text up to "]]>" here; a script's text ends at the first </script> even inside "<!--<script>" (HTML's
   * double-escaped script data); plaintext's text ends at </plaintext>, not at the end of the page. Unclosed
   * elements nest (<p> does not close the <p> before it), which only deepens the tree; past jsoup's depth limit of
   * 512 the deepest open element is closed.
   */
  static final TagSet HTML_TEXT_AND_VOID_TAGS = new TagSet().onNewTag(HtmlElements::configure);

  private HtmlElements() {}

  /** The elements of {@code html} and all its text; relative URLs in the document resolve against {@code pageUrl}. */
  static Document parse(String html, String pageUrl) {
    return parse(html, pageUrl, true);
  }

  /**
   * The elements of {@code html}, with all its text if {@code keepText}, else only the text of its title and style
   * elements (no comments, doctype or XML declaration either: {@link LinkTreeBuilder}).
   */
  static Document parse(String html, String pageUrl, boolean keepText) {
    return parse(html, pageUrl, keepText, null);
  }

  /**
   * As {@link #parse(String, String, boolean)}, telling {@code listener} (unless {@code null}) of each element as it
   * opens and closes, in document order; with a listener and without {@code keepText} the elements make no tree (the
   * document returned is empty), but a title or style element still holds its text ({@link LinkTreeBuilder}).
   */
  static Document parse(String html, String pageUrl, boolean keepText, NodeVisitor listener) {
    return new Parser(new LinkTreeBuilder(keepText, listener))
        .settings(ParseSettings.htmlDefault)
        .tagSet(new TagSet(HTML_TEXT_AND_VOID_TAGS)) // a TagSet collects the tags a parse meets: one per parse
        .parseInput(html, pageUrl);
  }

  /** HTML's text and void elements, by name in any namespace (an XHTML page declares one). */
  private static void configure(Tag tag) {
    switch (tag.normalName()) {
      case "script", "style", "iframe", "noembed", "noframes", "xmp", "plaintext" -> tag.set(Tag.Data);
      case "title", "textarea" -> tag.set(Tag.RcData);
      case "area", "base", "basefont", "bgsound", "br", "col", "command", "embed", "frame", "hr", "img", "input",
          "keygen", "link", "menuitem", "meta", "param", "source", "track", "wbr" -> tag.set(Tag.Void);
      default -> { }
    }
  }
}

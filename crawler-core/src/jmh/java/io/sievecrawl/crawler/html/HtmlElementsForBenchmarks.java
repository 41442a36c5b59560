package io.sievecrawl.crawler.html;

import org.jsoup.nodes.Document;
import org.jsoup.parser.ParseSettings;
import org.jsoup.parser.Parser;
import org.jsoup.parser.TagSet;
import org.jsoup.parser.TokensOnlyTreeBuilder;

/** {@link HtmlElements}, package-private in the crawler, for the benchmarks of other packages. */
public final class HtmlElementsForBenchmarks {
  private HtmlElementsForBenchmarks() {}

  public static Document parse(String html, String pageUrl) {
    return HtmlElements.parse(html, pageUrl);
  }

  /** The crawler's parse, with all the page's text (--text) or only its title's and style sheets'. */
  public static Document parse(String html, String pageUrl, boolean keepText) {
    return HtmlElements.parse(html, pageUrl, keepText);
  }

  /** Runs jsoup's tokenizer alone over {@code html}, tags configured as the crawler's parse does; the tokens read. */
  public static long tokenize(String html, String pageUrl) {
    TokensOnlyTreeBuilder builder = new TokensOnlyTreeBuilder();
    new Parser(builder).settings(ParseSettings.htmlDefault)
        .tagSet(new TagSet(HtmlElements.HTML_TEXT_AND_VOID_TAGS)).parseInput(html, pageUrl);
    return builder.tokens();
  }
}

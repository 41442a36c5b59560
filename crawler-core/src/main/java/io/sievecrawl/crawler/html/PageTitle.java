package io.sievecrawl.crawler.html;

import org.jsoup.nodes.Element;

/**
 * The title of an HTML page as a crawl records it ({@link PageLinks#title()}): the text of its first
 * {@code <title>} outside SVG (whose titles name drawings), white space collapsed; {@code null} without one. For
 * reading pages back from an archive, where the crawl's records are not at hand.
 */
public final class PageTitle {
  private PageTitle() {}

  /**
   * The title of {@code body}, decoded as a crawl decodes a page.
   *
   * @param headerCharset the charset the Content-Type header names, or {@code null}
   */
  public static String of(byte[] body, String headerCharset) {
    HtmlCharset.Decoded page = HtmlCharset.of(body, headerCharset).decode(body);
    return find(HtmlElements.parse(page.text(), "http://localhost/", false), false);
  }

  private static String find(Element parent, boolean inSvg) {
    for (Element e : parent.children()) {
      String name = e.normalName();
      if (name.equals("title") && !inSvg) {
        return e.text();
      }
      String found = find(e, name.equals("svg") || inSvg && !name.equals("foreignobject"));
      if (found != null) {
        return found;
      }
    }
    return null;
  }
}

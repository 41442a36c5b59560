package io.sievecrawl.crawler.html;

import org.jsoup.nodes.Document;

/** {@link HtmlElements}, package-private in the crawler, for the benchmarks of other packages. */
public final class HtmlElementsForBenchmarks {
  private HtmlElementsForBenchmarks() {}

  public static Document parse(String html, String pageUrl) {
    return HtmlElements.parse(html, pageUrl);
  }
}

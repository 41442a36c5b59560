package io.sievecrawl.crawler.html;

import io.sievecrawl.crawler.url.Url;
import java.util.List;

/**
 * What a page offers the crawler.
 *
 * @param urls every followable link, resolved and normalized, in document order, duplicates kept out
 * @param found every link found before nofollow and normalization filtering (the record's {@code outlinks})
 * @param nofollow whether the page asked crawlers not to follow its links
 * @param overCap links left unresolved because the page had more than the extractor's cap
 * @param tooLong distinct links, as written in the page, that were valid URLs but for their length (a trap guard)
 * @param title the text of the page's first {@code <title>} (outside SVG), white space collapsed, or {@code null}
 * @param text the page's visible text when it was asked for, else {@code null}
 * @param requisites what the page needs to be shown (style sheets, images, scripts...), resolved and normalized, in
 *     document order, duplicates kept out, when they were asked for; else empty
 * @param requisitesOverCap requisites left unresolved because the page had more than the extractor's cap
 */
public record PageLinks(List<Url> urls, int found, boolean nofollow, int overCap, List<String> tooLong,
    String title, String text, List<Url> requisites, int requisitesOverCap) {

  public PageLinks {
    urls = List.copyOf(urls);
    tooLong = List.copyOf(tooLong);
    requisites = List.copyOf(requisites);
  }

  public PageLinks(List<Url> urls, int found, boolean nofollow) {
    this(urls, found, nofollow, 0, List.of(), null, null, List.of(), 0);
  }

  /** {@link #urls()} as canonical strings. */
  public List<String> links() {
    return urls.stream().map(Url::toString).toList();
  }
}

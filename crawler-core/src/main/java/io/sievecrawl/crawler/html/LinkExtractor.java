package io.sievecrawl.crawler.html;

import io.sievecrawl.crawler.url.ReferenceResolver;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.NodeVisitor;

/**
 * Finds the links of an HTML page with jsoup.
 *
 * <p>Followed: {@code a[href]} (and an SVG {@code <a xlink:href>}), {@code area[href]}, {@code frame[src]},
 * {@code iframe[src]}, {@code link[href]} with rel {@code next}, {@code prev}, {@code alternate} or
 * {@code canonical}, and the URL of a {@code <meta http-equiv="refresh">} as the HTML standard reads it
 * ({@link MetaRefresh}). Links resolve against the page's final URL, or its first {@code <base href>}, parsed as
 * browsers parse it ({@link UrlNormalizer#resolverFor(Url, String, io.sievecrawl.crawler.encoding.WebEncoding)}).
 * As in a browser, what a {@code <template>} holds is no part of the page: neither its links nor its base count.
 * Non-http(s) schemes ({@code mailto:}, {@code javascript:}, {@code tel:}, {@code data:}) are dropped by the
 * normalizer. When nofollow is honored, {@code rel="nofollow"} links are skipped, and a page whose meta robots (or
 * the meta tag named after the crawler, or the X-Robots-Tag header) says {@code nofollow} or {@code none} yields
 * no links.
 *
 * <p>Encoding: see {@link HtmlCharset} (a byte-order mark, the Content-Type header's, an XML declaration's,
 * {@code <meta charset>}, else windows-1252), decoded as browsers decode it (the WHATWG Encoding Standard). Non-ASCII
 * characters in a link's query are encoded in it, as browsers do (WHATWG URL). A {@code &#0;} in a link is U+FFFD,
 * as the HTML standard reads it (jsoup gives U+0000).
 *
 * <p>Thread-safe: every call works on its own parse.
 */
public final class LinkExtractor {
  /*
   * Cost, measured on the OpenJDK javadoc (LinkExtractorBenchmark): jsoup's parse is most of it, run by its
   * tokenizer with its plain tree builder (HtmlElements; its StreamParser runs the HTML5 tree builder and, pruned as
   * it goes, costs more). Around it: the charset is decided by a byte prescan, so jsoup parses once instead of
   * parsing the first 5 KB to look for a meta charset and starting again; links are read as the parse opens their
   * elements (LinkFinder), with no tree built unless the text is wanted, instead of a CSS query or a walk over a
   * tree; rel and robots tokens compared in place instead of split by a regex; and each distinct href resolved once
   * per page, mostly on the ReferenceResolver's fast path.
   */

  /**
   * Parses a page, telling {@code listener} of each element as it opens and closes, in document order, and returns
   * its elements with all its text if {@code keepText} (else the document may be empty): {@link HtmlElements} in a
   * crawl, jsoup's HTML5 parse and a walk over its tree in tests.
   */
  @FunctionalInterface
  interface ElementParser {
    Document parse(String html, String pageUrl, boolean keepText, NodeVisitor listener);
  }

  private final UrlNormalizer normalizer;
  private final boolean honorNofollow;
  private final String robotName;
  private final int maxLinks;
  private final ElementParser parser;

  /**
   * @param robotName the crawler's name, lower case, matched against {@code <meta name="...">} robots tags
   */
  public LinkExtractor(UrlNormalizer normalizer, boolean honorNofollow, String robotName) {
    this(normalizer, honorNofollow, robotName, Integer.MAX_VALUE);
  }

  /**
   * @param maxLinks the most distinct links taken from one page (the first in the page); the rest are not resolved
   *     and are counted in {@link PageLinks#overCap()}
   */
  public LinkExtractor(UrlNormalizer normalizer, boolean honorNofollow, String robotName, int maxLinks) {
    this(normalizer, honorNofollow, robotName, maxLinks, HtmlElements::parse);
  }

  LinkExtractor(UrlNormalizer normalizer, boolean honorNofollow, String robotName, int maxLinks,
      ElementParser parser) {
    this.normalizer = normalizer;
    this.honorNofollow = honorNofollow;
    this.robotName = robotName.toLowerCase(Locale.ROOT);
    this.maxLinks = maxLinks;
    this.parser = parser;
  }

  /**
   * The links of {@code body}, fetched from {@code page}: its own URL is the base of its links, unless a
   * {@code <base href>} names another.
   *
   * @param headerCharset the charset named by the Content-Type header, or {@code null}
   * @param robotsTag the X-Robots-Tag header, or {@code null}
   */
  public PageLinks extract(byte[] body, String headerCharset, Url page, String robotsTag) {
    return extract(body, headerCharset, page, robotsTag, false);
  }

  /** As {@link #extract(byte[], String, Url, String)}, with the page's visible text if {@code withText}. */
  public PageLinks extract(byte[] body, String headerCharset, Url pageUrl, String robotsTag, boolean withText) {
    return extract(body, headerCharset, pageUrl, robotsTag, withText, false);
  }

  /**
   * As {@link #extract(byte[], String, Url, String, boolean)}, with the page's requisites if {@code withRequisites}
   * ({@link RequisiteFinder}; a nofollow page has them too: they are not links to follow).
   */
  public PageLinks extract(byte[] body, String headerCharset, Url pageUrl, String robotsTag, boolean withText,
      boolean withRequisites) {
    HtmlCharset.Decoded page = HtmlCharset.of(body, headerCharset).decode(body);
    // Links are found as the parse opens their elements; meta robots and <base href> may come anywhere, so links are
    // resolved after it.
    LinkFinder finder = new LinkFinder(honorNofollow, robotName, honorNofollow && LinkFinder.saysNofollow(robotsTag),
        withRequisites ? new RequisiteFinder(maxLinks) : null);
    Element document = parser.parse(page.text(), pageUrl.toString(), withText, finder);
    String text = withText ? RenderedText.of(document) : null;
    Set<Url> links = new LinkedHashSet<>();
    Set<String> tooLong = new LinkedHashSet<>();
    int overCap = 0;
    ReferenceResolver resolver = finder.base() == null ? normalizer.resolverFor(pageUrl, page.encoding())
        : normalizer.resolverFor(pageUrl, finder.base(), page.encoding());
    List<String> raw = finder.raw();
    if (!finder.nofollow()) {
      for (int i = 0; i < raw.size(); i++) {
        if (links.size() >= maxLinks) {
          overCap = raw.size() - i; // a hostile page of 450,000 links must not become 450,000 URLs in memory
          break;
        }
        String link = LinkFinder.withoutNul(raw.get(i));
        Url url = link == null ? null : resolver.resolveOrNull(link);
        if (url != null) {
          links.add(url);
        } else if (link != null && resolver.wasTooLong(link)) {
          tooLong.add(link);
        }
      }
    }
    List<Url> requisites = List.of();
    RequisiteFinder requisiteFinder = finder.requisites();
    if (requisiteFinder != null) {
      Set<Url> resolved = new LinkedHashSet<>();
      for (String reference : requisiteFinder.raw()) {
        Url url = resolver.resolveOrNull(LinkFinder.withoutNul(reference));
        if (url != null) {
          resolved.add(url);
        }
      }
      requisites = List.copyOf(resolved);
    }
    return new PageLinks(List.copyOf(links), raw.size(), finder.nofollow(), overCap, List.copyOf(tooLong),
        finder.title(), text, requisites, requisiteFinder == null ? 0 : requisiteFinder.overCap());
  }
}

package io.sievecrawl.crawler.html;

import io.sievecrawl.crawler.url.ReferenceResolver;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

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
   * parsing the first 5 KB to look for a meta charset and starting again; one walk over the tree instead of a CSS
   * query; rel and robots tokens compared in place instead of split by a regex; and each distinct href resolved once
   * per page, mostly on the ReferenceResolver's fast path.
   */
  private static final List<String> FOLLOWED_LINK_RELS = List.of("next", "prev", "previous", "alternate", "canonical");
  private static final String WHITESPACE = " \t\n\u000B\f\r";
  private static final String COMMA_OR_WHITESPACE = "," + WHITESPACE;

  /**
   * Turns a page's text into its elements, with all its text if {@code keepText} (else at least its title's):
   * {@link HtmlElements} in a crawl, jsoup's HTML5 parse in tests.
   */
  @FunctionalInterface
  interface ElementParser {
    Document parse(String html, String pageUrl, boolean keepText);
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
    // One pass over the document: meta robots and <base href> may come anywhere, so links are resolved after it.
    Finder finder = new Finder(honorNofollow && saysNofollow(robotsTag),
        withRequisites ? new RequisiteFinder(maxLinks) : null);
    Element document = parser.parse(page.text(), pageUrl.toString(), withText);
    finder.walk(document, false, false);
    String text = withText ? RenderedText.of(document) : null;
    Set<Url> links = new LinkedHashSet<>();
    Set<String> tooLong = new LinkedHashSet<>();
    int overCap = 0;
    ReferenceResolver resolver = finder.base == null ? normalizer.resolverFor(pageUrl, page.encoding())
        : normalizer.resolverFor(pageUrl, finder.base, page.encoding());
    if (!finder.nofollow) {
      for (int i = 0; i < finder.raw.size(); i++) {
        if (links.size() >= maxLinks) {
          overCap = finder.raw.size() - i; // a hostile page of 450,000 links must not become 450,000 URLs in memory
          break;
        }
        String link = withoutNul(finder.raw.get(i));
        Url url = link == null ? null : resolver.resolveOrNull(link);
        if (url != null) {
          links.add(url);
        } else if (link != null && resolver.wasTooLong(link)) {
          tooLong.add(link);
        }
      }
    }
    List<Url> requisites = List.of();
    if (finder.requisites != null) {
      Set<Url> resolved = new LinkedHashSet<>();
      for (String reference : finder.requisites.raw()) {
        Url url = resolver.resolveOrNull(withoutNul(reference));
        if (url != null) {
          resolved.add(url);
        }
      }
      requisites = List.copyOf(resolved);
    }
    return new PageLinks(List.copyOf(links), finder.raw.size(), finder.nofollow, overCap, List.copyOf(tooLong),
        finder.title, text, requisites, finder.requisites == null ? 0 : finder.requisites.overCap());
  }

  /**
   * Collects the raw links in document order ({@code null} for a nofollow link), the page's nofollow and its first
   * {@code <base href>}.
   */
  private final class Finder {
    final List<String> raw = new ArrayList<>();
    boolean nofollow;
    String base; // as written: resolved against the page's URL by the resolver
    String title;

    final RequisiteFinder requisites; // null when they are not wanted

    Finder(boolean nofollow, RequisiteFinder requisites) {
      this.nofollow = nofollow;
      this.requisites = requisites;
    }

    /**
     * Visits the elements under {@code parent} in document order, knowing whether they are inside an SVG image and
     * inside a frameset. Cheaper than jsoup's NodeTraversor, which guards against the tree changing under it; the
     * depth is bounded by jsoup's maximum parse depth.
     */
    void walk(Element parent, boolean inSvg, boolean inFrameset) {
      for (int i = 0, n = parent.childNodeSize(); i < n; i++) {
        if (parent.childNode(i) instanceof Element e) {
          String name = e.normalName();
          if (name.equals("template")) {
            continue; // its content is a fragment of its own, not part of the document
          }
          visit(e, name, inSvg, inFrameset);
          if (requisites != null) {
            requisites.visit(e, name, inSvg);
          }
          if (e.childNodeSize() > 0) {
            walk(e, name.equals("svg") || inSvg && !name.equals("foreignobject"),
                inFrameset || name.equals("frameset"));
          }
        }
      }
    }

    private void visit(Element e, String name, boolean inSvg, boolean inFrameset) {
      String link;
      switch (name) {
        case "a" -> link = e.hasAttr("href") ? e.attr("href") : svgXlinkHref(e, inSvg);
        case "area" -> link = e.hasAttr("href") ? e.attr("href") : null;
        case "iframe" -> link = e.hasAttr("src") ? e.attr("src") : null;
        case "frame" -> link = inFrameset && e.hasAttr("src") ? e.attr("src") : null; // HTML drops one elsewhere
        case "base" -> {
          if (base == null && e.hasAttr("href")) {
            base = withoutNul(e.attr("href"));
          }
          return;
        }
        case "link" -> link = e.hasAttr("href") && followsRel(e.attr("rel")) ? e.attr("href") : null;
        case "title" -> {
          if (title == null && !inSvg) {
            title = e.text(); // an SVG's <title> names a drawing, not the page
          }
          return;
        }
        case "meta" -> {
          if (!e.hasAttr("content")) {
            return;
          }
          if (isRobotsMeta(e)) {
            nofollow |= honorNofollow && saysNofollow(e.attr("content"));
            return;
          }
          link = refreshUrl(e);
        }
        default -> {
          return;
        }
      }
      if (link != null) {
        raw.add(honorNofollow && hasToken(e.attr("rel"), "nofollow", WHITESPACE) ? null : link);
      }
    }
  }

  /**
   * The link with each U+0000 made U+FFFD, as the HTML standard decodes {@code &#0;} (jsoup decodes it to U+0000;
   * a raw NUL in an attribute it already replaces).
   */
  private static String withoutNul(String link) {
    return link == null || link.indexOf('\0') < 0 ? link : link.replace('\0', '\uFFFD');
  }

  private static boolean followsRel(String rel) {
    for (String followed : FOLLOWED_LINK_RELS) {
      if (hasToken(rel, followed, WHITESPACE)) {
        return true;
      }
    }
    return false;
  }

  /** The URL of a {@code <meta http-equiv="refresh" content="5; url=...">}, or {@code null}. */
  private static String refreshUrl(Element meta) {
    if (!meta.attr("http-equiv").strip().equalsIgnoreCase("refresh")) { // other meta tags carry no link
      return null;
    }
    return MetaRefresh.url(meta.attr("content"));
  }

  /** The {@code xlink:href} of an SVG {@code <a>} (SVG 2: a plain {@code href} wins where both are given). */
  private static String svgXlinkHref(Element a, boolean inSvg) {
    return inSvg && a.hasAttr("xlink:href") ? a.attr("xlink:href") : null;
  }

  private boolean isRobotsMeta(Element meta) {
    String name = meta.attr("name");
    return lowerCaseEquals(name, 0, name.length(), "robots") || lowerCaseEquals(name, 0, name.length(), robotName);
  }

  private static boolean saysNofollow(String directives) {
    return directives != null && (hasToken(directives, "nofollow", COMMA_OR_WHITESPACE)
        || hasToken(directives, "none", COMMA_OR_WHITESPACE));
  }

  /** Whether {@code value}, split at any of {@code separators}, holds {@code token} once lower-cased. */
  static boolean hasToken(String value, String token, String separators) {
    int n = value.length();
    int start = 0;
    while (start < n) {
      while (start < n && separators.indexOf(value.charAt(start)) >= 0) {
        start++;
      }
      int end = start;
      while (end < n && separators.indexOf(value.charAt(end)) < 0) {
        end++;
      }
      if (end > start && lowerCaseEquals(value, start, end, token)) {
        return true;
      }
      start = end;
    }
    return false;
  }

  /**
   * Whether {@code value[from, to)} in lower case ({@link Locale#ROOT}) is {@code lowerCase}: compared in place
   * when it is ASCII, as it nearly always is.
   */
  private static boolean lowerCaseEquals(String value, int from, int to, String lowerCase) {
    for (int i = from; i < to; i++) {
      if (value.charAt(i) >= 0x80) {
        return value.substring(from, to).toLowerCase(Locale.ROOT).equals(lowerCase);
      }
    }
    if (to - from != lowerCase.length()) {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = value.charAt(i);
      if ((c >= 'A' && c <= 'Z' ? (char) (c + 32) : c) != lowerCase.charAt(i - from)) {
        return false;
      }
    }
    return true;
  }
}

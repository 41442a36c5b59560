package io.sievecrawl.crawler.html;

import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * Finds the links of an HTML page with jsoup.
 *
 * <p>Followed: {@code a[href]}, {@code area[href]}, {@code frame[src]}, {@code iframe[src]}, {@code link[href]}
 * with rel {@code next}, {@code prev}, {@code alternate} or {@code canonical}, and the URL of a
 * {@code <meta http-equiv="refresh">}. Links resolve against the page's final URL, or its {@code <base href>}.
 * Non-http(s) schemes ({@code mailto:}, {@code javascript:}, {@code tel:}, {@code data:}) are dropped by the
 * normalizer. When nofollow is honored, {@code rel="nofollow"} links are skipped, and a page whose meta robots (or
 * the meta tag named after the crawler, or the X-Robots-Tag header) says {@code nofollow} or {@code none} yields
 * no links.
 *
 * <p>Charset: the Content-Type header's, else a byte-order mark, else {@code <meta charset>}, else UTF-8
 * (jsoup's detection).
 */
public final class LinkExtractor {
  private static final Pattern REFRESH_URL = Pattern.compile("(?i)url\\s*=\\s*['\"]?([^'\"]+)");
  private static final Set<String> FOLLOWED_LINK_RELS = Set.of("next", "prev", "previous", "alternate", "canonical");

  private final UrlNormalizer normalizer;
  private final boolean honorNofollow;
  private final String robotName;

  /**
   * @param robotName the crawler's name, lower case, matched against {@code <meta name="...">} robots tags
   */
  public LinkExtractor(UrlNormalizer normalizer, boolean honorNofollow, String robotName) {
    this.normalizer = normalizer;
    this.honorNofollow = honorNofollow;
    this.robotName = robotName.toLowerCase(Locale.ROOT);
  }

  /**
   * The links of {@code body}, fetched from {@code pageUrl}.
   *
   * @param headerCharset the charset named by the Content-Type header, or {@code null}
   * @param robotsTag the X-Robots-Tag header, or {@code null}
   */
  public PageLinks extract(byte[] body, String headerCharset, String pageUrl, String robotsTag) {
    Document doc;
    try {
      doc = Jsoup.parse(new ByteArrayInputStream(body), supportedCharset(headerCharset), pageUrl);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // reading a byte array does not fail
    }
    String base = doc.baseUri().isEmpty() ? pageUrl : doc.baseUri();
    boolean nofollow = honorNofollow && saysNofollow(robotsTag);
    List<String> raw = new ArrayList<>();
    // One pass over the document: meta robots may come anywhere, so links are resolved after it.
    for (Element e : doc.select("a[href], area[href], link[href], frame[src], iframe[src], meta[content]")) {
      if (e.normalName().equals("meta") && isRobotsMeta(e)) {
        nofollow |= honorNofollow && saysNofollow(e.attr("content"));
        continue;
      }
      String link = rawLink(e);
      if (link != null) {
        raw.add(honorNofollow && hasRel(e, "nofollow") ? null : link);
      }
    }
    Set<String> links = new LinkedHashSet<>();
    for (String link : nofollow ? List.<String>of() : raw) {
      String url = link == null ? null : normalizer.resolveOrNull(base, link);
      if (url != null) {
        links.add(url);
      }
    }
    int found = raw.size();
    return new PageLinks(List.copyOf(links), found, nofollow);
  }

  private static String rawLink(Element e) {
    switch (e.normalName()) {
      case "a", "area":
        return e.attr("href");
      case "frame", "iframe":
        return e.attr("src");
      case "link":
        for (String rel : e.attr("rel").toLowerCase(Locale.ROOT).split("\\s+")) {
          if (FOLLOWED_LINK_RELS.contains(rel)) {
            return e.attr("href");
          }
        }
        return null;
      case "meta":
        if (!e.attr("http-equiv").equalsIgnoreCase("refresh")) { // other meta tags carry no link
          return null;
        }
        Matcher m = REFRESH_URL.matcher(e.attr("content"));
        return m.find() ? m.group(1).trim() : null;
      default:
        return null;
    }
  }

  private static boolean hasRel(Element e, String value) {
    for (String rel : e.attr("rel").toLowerCase(Locale.ROOT).split("\\s+")) {
      if (rel.equals(value)) {
        return true;
      }
    }
    return false;
  }

  private boolean isRobotsMeta(Element meta) {
    String name = meta.attr("name").toLowerCase(Locale.ROOT);
    return name.equals("robots") || name.equals(robotName);
  }

  private static boolean saysNofollow(String directives) {
    if (directives == null) {
      return false;
    }
    for (String d : directives.toLowerCase(Locale.ROOT).split("[,\\s]+")) {
      if (d.equals("nofollow") || d.equals("none")) {
        return true;
      }
    }
    return false;
  }

  private static String supportedCharset(String name) {
    if (name == null) {
      return null;
    }
    try {
      return Charset.isSupported(name.trim()) ? name.trim() : null;
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      return null;
    }
  }
}

package io.sievecrawl.crawler.sitemap;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import crawlercommons.sitemaps.UnknownFormatException;
import io.sievecrawl.crawler.fetch.Bodies;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import okio.Buffer;

/**
 * Reads a fetched sitemap with crawler-commons' {@link SiteMapParser}: XML sitemaps and sitemap indexes, plain-text
 * sitemaps, RSS and Atom feeds, gzip-compressed or not. It never fetches anything itself.
 *
 * <p>Lenient where real sites are sloppy: URLs outside the sitemap's folder are kept (scope decides what is
 * followed), and a sitemap cut off at {@code fetch.max-body-size} yields the URLs before the cut. Document type
 * definitions are refused (no external entities). At most {@link #MAX_URLS} URLs are taken from one sitemap, the
 * protocol's own limit.
 */
public final class SitemapReader {
  /** URLs taken from one sitemap at most: the sitemap protocol allows no more in one file. */
  public static final int MAX_URLS = 50_000;
  /** A compressed sitemap is read to this many bytes at most, the protocol's limit (no gzip bomb gets further). */
  static final long MAX_UNCOMPRESSED = 50L << 20;

  private SitemapReader() {}

  /**
   * What a sitemap lists.
   *
   * @param urls the URLs in document order, at most {@link #MAX_URLS}
   * @param index whether they are sitemaps (a sitemap index) rather than pages
   * @param overCap URLs past {@link #MAX_URLS}, not taken
   * @param truncated whether a compressed sitemap went on past {@link #MAX_UNCOMPRESSED} (a gzip bomb, say): only
   *     what came before the cut was read
   */
  public record Listing(List<String> urls, boolean index, int overCap, boolean truncated) {}

  /** A body that is no sitemap crawler-commons can read. */
  public static final class NotASitemapException extends Exception {
    NotASitemapException(String message) {
      super(message);
    }
  }

  /**
   * The URLs {@code body}, fetched from {@code url}, lists.
   *
   * @param contentType the response's media type ({@code type/subtype}, lower case), or {@code null}
   * @throws NotASitemapException saying why, if it is no sitemap
   */
  public static Listing read(byte[] body, String contentType, String url) throws NotASitemapException {
    URL location;
    try {
      location = URI.create(url).toURL();
    } catch (IllegalArgumentException | MalformedURLException e) {
      throw new NotASitemapException("not a URL crawler-commons reads: " + url);
    }
    AbstractSiteMap map;
    boolean truncated = false;
    try {
      if (isGzip(body)) { // by its bytes, whatever its name and type; decompressed here to a bound
        Bodies.Decoded decoded = Bodies.decode(new Buffer().write(body), "gzip", MAX_UNCOMPRESSED);
        body = decoded.bytes();
        truncated = decoded.truncated();
        contentType = startsWithMarkup(body) ? "application/xml" : "text/plain";
      }
      // Not strict: keep URLs outside the sitemap's folder. Partial: keep what precedes a cut or an error.
      SiteMapParser parser = new SiteMapParser(false, true);
      map = contentType == null ? parser.parseSiteMap(body, location)
          : parser.parseSiteMap(contentType, body, location);
    } catch (UnknownFormatException | IOException e) {
      throw new NotASitemapException("not a sitemap: " + e.getMessage());
    } catch (RuntimeException e) { // the parser's own failures on malformed input
      throw new NotASitemapException("not a readable sitemap: " + e);
    }
    List<String> urls = new ArrayList<>();
    int overCap = 0;
    if (map instanceof SiteMapIndex index) {
      Collection<AbstractSiteMap> sitemaps = index.getSitemaps();
      for (AbstractSiteMap sitemap : sitemaps) {
        if (urls.size() < MAX_URLS) {
          urls.add(sitemap.getUrl().toString());
        } else {
          overCap++;
        }
      }
      return new Listing(urls, true, overCap, truncated);
    }
    for (SiteMapURL entry : ((SiteMap) map).getSiteMapUrls()) {
      if (urls.size() < MAX_URLS) {
        urls.add(entry.getUrl().toString());
      } else {
        overCap++;
      }
    }
    return new Listing(urls, false, overCap, truncated);
  }

  private static boolean isGzip(byte[] body) {
    return body.length >= 2 && (body[0] & 0xFF) == 0x1F && (body[1] & 0xFF) == 0x8B;
  }

  /** Whether the first character that is not whitespace (or a byte-order mark) is '<'. */
  private static boolean startsWithMarkup(byte[] body) {
    for (byte b : body) {
      int c = b & 0xFF;
      if (c == '<') {
        return true;
      }
      if (!(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0xEF || c == 0xBB || c == 0xBF)) {
        return false;
      }
    }
    return false;
  }
}

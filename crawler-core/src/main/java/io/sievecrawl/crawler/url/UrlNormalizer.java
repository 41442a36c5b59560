package io.sievecrawl.crawler.url;

import io.sievecrawl.crawler.encoding.WebEncoding;

/**
 * Turns a URL, or a reference resolved against a base, into the one canonical form under which the crawler sieves
 * and fetches it.
 *
 * <p>A URL is read as browsers read it: {@link UrlParser} is the WHATWG URL standard's parser for http(s) URLs and
 * references, {@link Hosts} its host parser (UTS #46 for international names, every IPv4 form browsers accept).
 * The canonical form then follows RFC 3986 section 6.2: the default port and trailing host dots dropped,
 * percent-encoding normalized (unreserved characters decoded, other escapes in upper case, characters that may not
 * appear raw encoded as UTF-8, or in the document's encoding in a query, a stray {@code %} escaped, a query's
 * {@code '} encoded as browsers send it), an empty query removed. Optionally session ids ({@code ;jsessionid=...},
 * {@code PHPSESSID=...}) are removed, and nothing else of the parameter list they stand in. Only http and https URLs
 * are accepted, up to a maximum length. Normalizing a canonical URL again gives it back unchanged.
 *
 * <p>This class composes the steps ({@code canonical}), each a class of its own: {@link PercentEncoding},
 * {@link DotSegments}, {@link SessionIds}. {@link #get} throws, naming why a URL is refused, and {@link #parse}
 * returns null; the links of a page go through a {@link ReferenceResolver}, and a canonical string read back (from a
 * frontier) is split by {@link Url#ofCanonical} without normalizing it again.
 *
 * <p>crawler-commons' {@code BasicURLNormalizer} 1.6 was the first choice, but it garbles the query of a URL
 * whose path holds an encoded unreserved character ({@code /%7Euser?b=2} becomes {@code /~user?b?2}) and
 * reorders query parameters; this class does the same normalizations and keeps parameter order.
 */
public final class UrlNormalizer {
  private final int maxLength;
  private final boolean stripSessionIds;

  /**
   * @param maxLength the longest normalized URL accepted
   * @param stripSessionIds whether to remove session-id path parameters and query parameters
   */
  public UrlNormalizer(int maxLength, boolean stripSessionIds) {
    this.maxLength = maxLength;
    this.stripSessionIds = stripSessionIds;
  }

  int maxLength() {
    return maxLength;
  }

  boolean stripsSessionIds() {
    return stripSessionIds;
  }

  /** A normalizer like this one that keeps session ids (this one, when it keeps them already). */
  public UrlNormalizer keepingSessionIds() {
    return stripSessionIds ? new UrlNormalizer(maxLength, false) : this;
  }

  /**
   * The canonical {@link Url} of an absolute http(s) URL.
   *
   * @throws InvalidUrlException naming why it is no URL the crawler fetches
   */
  public Url get(String url) throws InvalidUrlException {
    return canonical(UrlParser.parse(url, null), maxLength, WebEncoding.UTF_8);
  }

  /** {@link #get}, or {@code null} if it is no URL the crawler fetches. */
  public Url parse(String url) {
    try {
      return get(url);
    } catch (InvalidUrlException e) {
      return null;
    }
  }

  /**
   * A resolver of references against {@code base} (an absolute URL, canonical or not, such as a page's URL or its
   * {@code <base href>}) that resolves each distinct reference once: for the links of one page.
   */
  public ReferenceResolver resolverFor(String base) {
    return resolverFor(base, WebEncoding.UTF_8);
  }

  /**
   * As {@link #resolverFor(String)}, for the links of a document in {@code encoding}: a non-ASCII character in a
   * link's query is percent-encoded in it, as browsers do (the WHATWG URL standard), so that a server that reads
   * its queries in the encoding of its pages gets what a browser would send; a character it cannot hold goes as
   * {@code &#NNNN;}.
   */
  public ReferenceResolver resolverFor(String base, WebEncoding encoding) {
    return new ReferenceResolver(this, parsePartsOrNull(base), encoding.forUrls());
  }

  /**
   * A resolver of references against a page's own {@link Url}, canonical already: used as it is, without being
   * parsed again.
   */
  public ReferenceResolver resolverFor(Url page) {
    return resolverFor(page, WebEncoding.UTF_8);
  }

  /** As {@link #resolverFor(Url)}, for the links of a document in {@code encoding}. */
  public ReferenceResolver resolverFor(Url page, WebEncoding encoding) {
    if (stripSessionIds && SessionIds.mayBeIn(page)) { // kept as a redirect sent it: links resolve against it
      return resolverFor(page.toString(), encoding);
    }
    return new ReferenceResolver(this, page, encoding.forUrls());
  }

  /**
   * A resolver for the links of a page that has a {@code <base href>}: the href is parsed against the page's URL
   * as browsers parse it (a backslash is a slash, {@code https:host/} against an http page leads to that host), and
   * links resolve against what it gives. As in Chromium, a {@code javascript:} or {@code data:} base is ignored;
   * an invalid one, or one of another scheme ({@code ftp:}), leaves only the absolute links.
   */
  public ReferenceResolver resolverFor(Url page, String baseHref, WebEncoding encoding) {
    String scheme = UrlParser.scheme(baseHref);
    if ("javascript".equals(scheme) || "data".equals(scheme)) {
      return resolverFor(page, encoding);
    }
    UrlParser.Parts base;
    try {
      base = UrlParser.parse(baseHref, UrlParser.parse(page.toString(), null));
    } catch (InvalidUrlException e) {
      base = null;
    }
    return new ReferenceResolver(this, base, encoding.forUrls());
  }

  private static UrlParser.Parts parsePartsOrNull(String url) {
    try {
      return UrlParser.parse(url, null);
    } catch (InvalidUrlException e) {
      return null;
    }
  }

  /** The canonical {@link Url} of {@code reference} resolved against the absolute URL {@code base}. */
  Url resolveToUrl(String base, String reference) throws InvalidUrlException {
    return resolveToUrl(parsePartsOrNull(base), reference, WebEncoding.UTF_8);
  }

  /** As {@link #resolveToUrl(String, String)}, a non-ASCII query encoded as a page in {@code encoding} does. */
  Url resolveToUrl(String base, String reference, WebEncoding encoding) throws InvalidUrlException {
    return resolveToUrl(parsePartsOrNull(base), reference, encoding.forUrls());
  }

  /**
   * The canonical {@link Url} of {@code reference} resolved against {@code base} (null when the base is no http(s)
   * URL: only absolute references resolve), a non-ASCII query encoded in {@code queryEncoding}.
   */
  Url resolveToUrl(UrlParser.Parts base, String reference, WebEncoding queryEncoding) throws InvalidUrlException {
    return canonical(UrlParser.parse(reference, base), maxLength, queryEncoding);
  }

  /**
   * {@code base} as a {@link Url} whatever its length (a long base may still have short links), a non-ASCII query
   * in {@code queryEncoding} (the document's, as a browser parses a {@code <base href>}), or null.
   */
  Url toBaseUrlOrNull(UrlParser.Parts base, WebEncoding queryEncoding) {
    try {
      return base == null ? null : canonical(base, Integer.MAX_VALUE, queryEncoding);
    } catch (InvalidUrlException e) {
      return null;
    }
  }

  // The string forms, for the tests of this package; elsewhere a Url's toString() is the canonical string.

  /** The canonical form of an absolute URL. */
  String normalize(String url) throws InvalidUrlException {
    return get(url).toString();
  }

  /** The canonical form of {@code reference} resolved against the absolute URL {@code base}. */
  String resolve(String base, String reference) throws InvalidUrlException {
    return resolveToUrl(base, reference).toString();
  }

  /** {@link #normalize}, or {@code null} if the URL is invalid. */
  String normalizeOrNull(String url) {
    try {
      return normalize(url);
    } catch (InvalidUrlException e) {
      return null;
    }
  }

  /** {@link #resolve}, or {@code null} if the result is invalid. */
  String resolveOrNull(String base, String reference) {
    try {
      return resolve(base, reference);
    } catch (InvalidUrlException e) {
      return null;
    }
  }

  /** The crawler's canonical form of the parts a URL parses into. */
  private Url canonical(UrlParser.Parts parts, int maxLength, WebEncoding queryEncoding) throws InvalidUrlException {
    String scheme = parts.scheme();
    int port = parts.port() < 0 ? Url.defaultPort(scheme) : parts.port();
    if (port == 0) {
      throw new InvalidUrlException("invalid port '0'"); // valid in a URL, but no server listens on it
    }
    StringBuilder out = new StringBuilder(64);
    out.append(scheme).append("://");
    int hostStart = out.length();
    out.append(Hosts.canonical(parts.host()));
    int hostEnd = out.length();
    if (port != Url.defaultPort(scheme)) {
      out.append(':').append(port);
    }
    int originEnd = out.length();

    String path = PercentEncoding.normalizePath(parts.path());
    if (stripSessionIds && path.indexOf(';') >= 0) {
      path = SessionIds.removeFromPath(path);
    }
    path = DotSegments.remove(path);
    out.append(path.isEmpty() ? "/" : path);

    int queryMark = -1;
    if (parts.query() != null) {
      String query = PercentEncoding.normalizeQuery(parts.query(), queryEncoding);
      if (stripSessionIds) {
        query = SessionIds.removeFromQuery(query);
      }
      if (!query.isEmpty()) {
        queryMark = out.length();
        out.append('?').append(query);
      }
    }
    if (out.length() > maxLength) {
      throw InvalidUrlException.tooLong(maxLength);
    }
    String url = out.toString();
    return new Url(url, scheme, url.substring(hostStart, hostEnd), port, url.substring(0, originEnd), queryMark);
  }
}

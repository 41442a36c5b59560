package io.sievecrawl.crawler.url;

/**
 * An http(s) URL in the crawler's canonical form, parsed once: scheme, host, port and origin are known without
 * scanning the string again. {@link UrlNormalizer} makes them, and {@link #ofCanonical} splits a string it made
 * without normalizing it again, so every {@code Url} is canonical, and two are equal exactly when their strings are.
 *
 * <p>{@link #toString()} is the canonical string, under which the URL is sieved and fetched. The host of an IPv6
 * address keeps its brackets ({@code [::1]}). {@link #port()} is the effective port: 80 or 443 where the URL names
 * none.
 */
public final class Url {
  static final String HTTP = "http";
  static final String HTTPS = "https";

  private final String url;
  private final String scheme;
  private final String host;
  private final int port;
  private final String origin;
  /** Index of the '?' that starts the query, or -1; the path starts where the origin ends. */
  private final int queryMark;

  /**
   * @param scheme {@link #HTTP} or {@link #HTTPS} (these instances)
   * @param origin a prefix of {@code url}; may be the very instance another {@code Url} of the origin holds
   */
  Url(String url, String scheme, String host, int port, String origin, int queryMark) {
    this.url = url;
    this.scheme = scheme;
    this.host = host;
    this.port = port;
    this.origin = origin;
    this.queryMark = queryMark;
  }

  /**
   * The {@link Url} of a string {@link UrlNormalizer} produced, such as one read back from a frontier, split into
   * its parts without normalizing it again. The shape is checked (scheme, a host of the characters a canonical host
   * has, a port only where it is not the scheme's default, a path, no empty query, no fragment), not every rule.
   *
   * @throws IllegalArgumentException if it does not have the shape of a canonical http(s) URL
   */
  public static Url ofCanonical(String canonicalUrl) {
    String scheme = canonicalUrl.startsWith("https://") ? HTTPS
        : canonicalUrl.startsWith("http://") ? HTTP : null;
    if (scheme == null || canonicalUrl.indexOf('#') >= 0) {
      throw notCanonical(canonicalUrl);
    }
    int hostStart = scheme.length() + 3;
    int pathStart = canonicalUrl.indexOf('/', hostStart);
    int queryMark = pathStart < 0 ? -1 : canonicalUrl.indexOf('?', pathStart);
    if (pathStart < 0 || queryMark == canonicalUrl.length() - 1) { // no path, or an empty query
      throw notCanonical(canonicalUrl);
    }
    boolean ipv6 = canonicalUrl.charAt(hostStart) == '[';
    int hostEnd = ipv6 ? canonicalUrl.indexOf(']', hostStart) + 1 : endOfHost(canonicalUrl, hostStart, pathStart);
    if (hostEnd <= hostStart + (ipv6 ? 2 : 0) || hostEnd > pathStart
        || !hasHostCharacters(canonicalUrl, hostStart + (ipv6 ? 1 : 0), hostEnd - (ipv6 ? 1 : 0), ipv6)) {
      throw notCanonical(canonicalUrl);
    }
    int port = defaultPort(scheme);
    if (hostEnd < pathStart) {
      boolean digitsFollow = canonicalUrl.charAt(hostEnd) == ':' && hostEnd + 1 < pathStart
          && canonicalUrl.charAt(hostEnd + 1) != '0'; // a canonical port has no leading zero
      port = digitsFollow ? parsePort(canonicalUrl, hostEnd + 1, pathStart) : -1;
      if (port < 0 || port == defaultPort(scheme)) {
        throw notCanonical(canonicalUrl);
      }
    }
    return new Url(canonicalUrl, scheme, canonicalUrl.substring(hostStart, hostEnd), port,
        canonicalUrl.substring(0, pathStart), queryMark);
  }

  /** Where a host that is no IPv6 literal ends: at a ':' before {@code pathStart}, or at {@code pathStart}. */
  private static int endOfHost(String s, int from, int pathStart) {
    int colon = s.indexOf(':', from);
    return colon < 0 || colon > pathStart ? pathStart : colon;
  }

  /** Lower-case letters, digits, '.', '-' and '_' (a name or IPv4 address); hex digits, ':' and '.' for IPv6. */
  private static boolean hasHostCharacters(String s, int from, int to, boolean ipv6) {
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      boolean ok = ipv6 ? (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == ':' || c == '.'
          : (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** The port in {@code s[from, to)}, or -1 if it is not 1 to 65535 in at most five digits. */
  static int parsePort(String s, int from, int to) {
    if (to - from > 5) {
      return -1;
    }
    int port = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      port = port * 10 + (c - '0');
    }
    return port >= 1 && port <= 65535 ? port : -1;
  }

  private static IllegalArgumentException notCanonical(String url) {
    return new IllegalArgumentException("not a canonical http(s) URL: '" + url + "'");
  }

  /** The port of {@code scheme} where a URL names none. */
  static int defaultPort(String scheme) {
    return scheme.equals(HTTPS) ? 443 : 80;
  }

  /** {@code http} or {@code https}. */
  public String scheme() {
    return scheme;
  }

  public boolean isHttps() {
    return scheme == HTTPS;
  }

  /** The host in lower case: a name in ASCII (punycode), a dotted IPv4 address, or an IPv6 address in brackets. */
  public String host() {
    return host;
  }

  /** The port, 80 or 443 if the URL names none. */
  public int port() {
    return port;
  }

  /**
   * The origin, {@code scheme://host[:port]} with the port only where it is not the scheme's default: the key of
   * politeness, robots.txt and scope (RFC 6454, RFC 9309).
   */
  public String origin() {
    return origin;
  }

  /** The path, never empty: it starts with {@code /}. */
  public String path() {
    return url.substring(origin.length(), pathEnd());
  }

  /**
   * Where the {@link #path()} ends in {@link #toString()} (it starts at the origin's length): at the query's
   * {@code ?}, or at the end. For reading the path in place, without a string of its own.
   */
  public int pathEnd() {
    return queryMark < 0 ? url.length() : queryMark;
  }

  /** The query without its {@code ?}, never empty, or {@code null} if there is none. */
  public String query() {
    return queryMark < 0 ? null : url.substring(queryMark + 1);
  }

  /** The path and the query, as in an HTTP request line: {@code /a/b?c=d}. */
  public String pathAndQuery() {
    return url.substring(origin.length());
  }

  /** Whether {@code other} has the same origin (the same scheme, host and port). */
  public boolean sameOrigin(Url other) {
    return origin == other.origin || origin.equals(other.origin);
  }

  @Override
  public boolean equals(Object o) {
    return o == this || (o instanceof Url other && url.equals(other.url));
  }

  @Override
  public int hashCode() {
    return url.hashCode();
  }

  /** The canonical string. */
  @Override
  public String toString() {
    return url;
  }
}

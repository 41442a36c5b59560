package io.sievecrawl.crawler.url;

/**
 * An http(s) URL in the crawler's canonical form, parsed once: scheme, host, port and origin are known without
 * scanning the string again. Only {@link UrlNormalizer} makes them, so every {@code Url} is canonical, and two are
 * equal exactly when their strings are.
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
    return url.substring(origin.length(), queryMark < 0 ? url.length() : queryMark);
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

package io.sievecrawl.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * An HTTP proxy as curl and wget take it: {@code http://[USER:PASSWORD@]HOST[:PORT]}, the scheme optional and the
 * port 80 when left out. HTTPS URLs go through it too, tunnelled with CONNECT; the proxy itself is spoken to in
 * plain HTTP.
 *
 * @param host the proxy's host name or address (an IPv6 address without brackets)
 * @param port its port
 * @param user the user name for Proxy-Authorization (percent-decoded), or {@code null}
 * @param password the password, or {@code null}
 */
public record ProxyUrl(String host, int port, String user, String password) {
  /** The form {@link #parse} takes, for error messages. */
  public static final String FORM = "http://[USER:PASSWORD@]HOST[:PORT]";

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException saying what is expected, in words that follow "must be"
   */
  public static ProxyUrl parse(String text) {
    String t = text.strip();
    if (!t.contains("://")) {
      t = "http://" + t;
    }
    URI uri;
    try {
      uri = new URI(t);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("an HTTP proxy URL, " + FORM);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http")) {
      throw new IllegalArgumentException("an HTTP proxy URL, " + FORM + " (" + scheme + " proxies are not supported)");
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    if (uri.getHost() == null || !path.isEmpty() && !path.equals("/") || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw new IllegalArgumentException("an HTTP proxy URL, " + FORM);
    }
    String host = uri.getHost().toLowerCase(Locale.ROOT);
    host = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    String user = null;
    String password = null;
    if (uri.getRawUserInfo() != null) {
      String info = uri.getRawUserInfo();
      int colon = info.indexOf(':');
      user = decode(colon < 0 ? info : info.substring(0, colon));
      password = colon < 0 ? "" : decode(info.substring(colon + 1));
    }
    return new ProxyUrl(host, uri.getPort() < 0 ? 80 : uri.getPort(), user, password);
  }

  private static String decode(String s) {
    return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /** The proxy as {@code http://HOST:PORT}, without the credentials (for logs). */
  @Override
  public String toString() {
    return "http://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}

package io.sievecrawl.crawler.fetch;

import io.sievecrawl.config.ProxyUrl;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import okhttp3.Credentials;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/**
 * Which proxy each request goes through, chosen as curl and wget choose: fetch.proxy when set ({@code none} for no
 * proxy), else the {@code http_proxy} environment variable for http URLs and {@code https_proxy} (or
 * {@code HTTPS_PROXY}) for https URLs; hosts listed in {@code no_proxy} (or {@code NO_PROXY}: names, which cover
 * their subdomains, addresses, address ranges such as {@code 10.0.0.0/8}, or {@code *}) and loopback hosts are
 * reached directly. Only the lower-case {@code http_proxy} is read, as curl does: a CGI program's environment has
 * {@code HTTP_PROXY} from a request header. Credentials in a proxy URL go with its requests (Basic).
 *
 * <p>Immutable and thread-safe.
 */
public final class ProxyRoutes extends ProxySelector {
  private static final List<Proxy> DIRECT = List.of(Proxy.NO_PROXY);

  private final Route http; // null: direct
  private final Route https; // null: direct
  private final List<String> noProxy; // no_proxy's entries, for the log
  private final List<NoProxy> direct; // the same, parsed

  /**
   * One entry of no_proxy, as curl reads them: a name (covering its subdomains; {@code *} is every host), or an
   * address or range {@code ADDRESS/BITS} ({@code network} and {@code bits} set).
   */
  private record NoProxy(String name, byte[] network, int bits) {
    static NoProxy parse(String entry) {
      int slash = entry.indexOf('/');
      byte[] address = addressOf(slash < 0 ? entry : entry.substring(0, slash));
      if (address == null) {
        return slash < 0 ? new NoProxy(entry, null, 0) : null;
      }
      int bits = address.length * 8;
      if (slash >= 0) {
        try {
          bits = Integer.parseInt(entry.substring(slash + 1));
        } catch (NumberFormatException e) {
          return null;
        }
      }
      return bits < 0 || bits > address.length * 8 ? null : new NoProxy(null, address, bits);
    }

    boolean covers(String host, byte[] address) {
      if (network == null) {
        return name.equals("*") || host.equals(name) || host.endsWith("." + name);
      }
      if (address == null || address.length != network.length) {
        return false;
      }
      for (int bit = 0; bit < bits; bit++) {
        int mask = 0x80 >>> (bit % 8);
        if ((address[bit / 8] & mask) != (network[bit / 8] & mask)) {
          return false;
        }
      }
      return true;
    }
  }

  /** A proxy, and the list {@link #select} answers for the URLs it takes. */
  private record Route(ProxyUrl url, List<Proxy> proxies) {
    Route(ProxyUrl url) {
      this(url, List.of(new Proxy(Proxy.Type.HTTP, InetSocketAddress.createUnresolved(url.host(), url.port()))));
    }
  }

  private ProxyRoutes(ProxyUrl http, ProxyUrl https, List<String> noProxy) {
    this.http = http == null ? null : new Route(http);
    this.https = https == null ? null : new Route(https);
    this.noProxy = noProxy;
    this.direct = noProxy.stream().map(NoProxy::parse).filter(Objects::nonNull).toList();
  }

  /**
   * The routes for {@code setting} (fetch.proxy: empty, {@code none} or a proxy URL) and {@code environment}.
   *
   * @throws IllegalArgumentException naming the environment variable that holds no usable proxy URL
   */
  public static ProxyRoutes of(String setting, Map<String, String> environment) {
    List<String> noProxy = noProxyList(first(environment, "no_proxy", "NO_PROXY"));
    if (setting.equalsIgnoreCase("none")) {
      return new ProxyRoutes(null, null, noProxy);
    }
    if (!setting.isEmpty()) {
      ProxyUrl proxy = ProxyUrl.parse(setting);
      return new ProxyRoutes(proxy, proxy, noProxy);
    }
    return new ProxyRoutes(fromEnvironment(environment, "http_proxy"),
        fromEnvironment(environment, "https_proxy", "HTTPS_PROXY"), noProxy);
  }

  /**
   * Routes {@code builder}'s requests through these proxies. A proxy with credentials gets them with every plain-HTTP
   * request it forwards (so no request costs a 407 first) and in answer to the challenge of a CONNECT.
   */
  public OkHttpClient.Builder applyTo(OkHttpClient.Builder builder) {
    builder.addInterceptor(chain -> {
      Request request = chain.request();
      Route route = request.isHttps() ? null : http;
      if (route != null && route.url().user() != null && request.header("Proxy-Authorization") == null
          && !isDirect(request.url().host())) {
        request = request.newBuilder().header("Proxy-Authorization", basic(route.url())).build();
      }
      return chain.proceed(request);
    });
    return builder.proxySelector(this).proxyAuthenticator((route, response) -> {
      ProxyUrl proxy = proxyAt(route == null ? null : route.proxy().address());
      if (proxy == null || proxy.user() == null || response.request().header("Proxy-Authorization") != null) {
        return null; // no credentials, or they were refused: the 407 stands
      }
      return response.request().newBuilder().header("Proxy-Authorization", basic(proxy)).build();
    });
  }

  /** Whether {@code host} is a proxy's: it may be on the local network even where crawled hosts may not. */
  public boolean isProxyHost(String host) {
    return http != null && http.url().host().equalsIgnoreCase(host)
        || https != null && https.url().host().equalsIgnoreCase(host);
  }

  /** The proxies in use, for the log: {@code http PROXY, https PROXY[, direct to NO_PROXY]}, or {@code none}. */
  public String describe() {
    if (http == null && https == null) {
      return "none";
    }
    return "http " + (http == null ? "direct" : http.url()) + ", https " + (https == null ? "direct" : https.url())
        + (noProxy.isEmpty() ? "" : ", direct to " + String.join(",", noProxy));
  }

  @Override
  public List<Proxy> select(URI uri) {
    Route route = "https".equalsIgnoreCase(uri.getScheme()) ? https : http;
    String host = uri.getHost();
    if (route == null || host == null || isDirect(host)) {
      return DIRECT;
    }
    return route.proxies();
  }

  @Override
  public void connectFailed(URI uri, SocketAddress address, IOException e) {
    // one proxy per scheme: nothing to fall back to, the fetch fails with the connection's error
  }

  private boolean isDirect(String host) {
    String bare = host.startsWith("[") ? host.substring(1, host.length() - 1).toLowerCase(Locale.ROOT)
        : host.toLowerCase(Locale.ROOT);
    byte[] address = addressOf(bare);
    if (bare.equals("localhost") || bare.endsWith(".localhost")
        || address != null && isLoopback(address)) {
      return true;
    }
    for (NoProxy entry : direct) {
      if (entry.covers(bare, address)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code address} is in 127.0.0.0/8 or is ::1. */
  private static boolean isLoopback(byte[] address) {
    if (address.length == 4) {
      return address[0] == 127;
    }
    for (int i = 0; i < 15; i++) {
      if (address[i] != 0) {
        return false;
      }
    }
    return address[15] == 1;
  }

  /** The bytes of {@code host} when it is an IPv4 or IPv6 address (without brackets), else {@code null}. */
  private static byte[] addressOf(String host) {
    boolean literal = !host.isEmpty()
        && (host.indexOf(':') >= 0 || host.chars().allMatch(c -> c >= '0' && c <= '9' || c == '.'));
    try {
      return literal ? InetAddress.getByName(host).getAddress() : null; // a literal: no lookup
    } catch (UnknownHostException e) {
      return null;
    }
  }

  private static String basic(ProxyUrl proxy) {
    return Credentials.basic(proxy.user(), proxy.password(), StandardCharsets.UTF_8);
  }

  private ProxyUrl proxyAt(SocketAddress address) {
    if (!(address instanceof InetSocketAddress a)) {
      return null;
    }
    for (Route route : new Route[] {http, https}) {
      if (route != null && route.url().port() == a.getPort()
          && route.url().host().equalsIgnoreCase(a.getHostString())) {
        return route.url();
      }
    }
    return null;
  }

  private static ProxyUrl fromEnvironment(Map<String, String> environment, String... names) {
    for (String name : names) {
      String value = environment.get(name);
      if (value != null && !value.isBlank()) {
        try {
          return ProxyUrl.parse(value);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("environment variable " + name + ": must be " + e.getMessage());
        }
      }
    }
    return null;
  }

  private static String first(Map<String, String> environment, String... names) {
    for (String name : names) {
      String value = environment.get(name);
      if (value != null && !value.isBlank()) {
        return value;
      }
    }
    return "";
  }

  /** {@code no_proxy}'s entries: lower case, without a leading dot or {@code *.}, a port or brackets. */
  private static List<String> noProxyList(String value) {
    List<String> entries = new ArrayList<>();
    for (String raw : value.split("[,\\s]+")) {
      String e = raw.strip().toLowerCase(Locale.ROOT);
      if (e.startsWith("*.")) {
        e = e.substring(2);
      } else if (e.startsWith(".")) {
        e = e.substring(1);
      }
      if (e.startsWith("[")) {
        e = e.substring(1, Math.max(1, e.indexOf(']')));
      } else if (e.indexOf(':') == e.lastIndexOf(':') && e.indexOf(':') > 0) {
        e = e.substring(0, e.indexOf(':')); // host:port; an IPv6 address has more than one colon
      }
      if (!e.isEmpty()) {
        entries.add(e);
      }
    }
    return List.copyOf(entries);
  }
}

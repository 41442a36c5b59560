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
import okhttp3.Credentials;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/**
 * Which proxy each request goes through, chosen as curl and wget choose: fetch.proxy when set ({@code none} for no
 * proxy), else the {@code http_proxy} environment variable for http URLs and {@code https_proxy} (or
 * {@code HTTPS_PROXY}) for https URLs; hosts listed in {@code no_proxy} (or {@code NO_PROXY}: names, which cover
 * their subdomains, addresses, or {@code *}) and loopback hosts are reached directly. Only the lower-case
 * {@code http_proxy} is read, as curl does: a CGI program's environment has {@code HTTP_PROXY} from a request header.
 * Credentials in a proxy URL answer its 407 challenges (Basic).
 *
 * <p>Immutable and thread-safe.
 */
public final class ProxyRoutes extends ProxySelector {
  private static final List<Proxy> DIRECT = List.of(Proxy.NO_PROXY);

  private final Route http; // null: direct
  private final Route https; // null: direct
  private final List<String> noProxy; // lower-case names and addresses; "*" for every host

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
    if (isLoopback(bare)) {
      return true;
    }
    for (String entry : noProxy) {
      if (entry.equals("*") || bare.equals(entry) || bare.endsWith("." + entry)) {
        return true;
      }
    }
    return false;
  }

  private static String basic(ProxyUrl proxy) {
    return Credentials.basic(proxy.user(), proxy.password(), StandardCharsets.UTF_8);
  }

  private static boolean isLoopback(String host) {
    if (host.equals("localhost") || host.endsWith(".localhost")) {
      return true;
    }
    boolean literal = host.indexOf(':') >= 0 || host.chars().allMatch(c -> c >= '0' && c <= '9' || c == '.');
    try {
      return literal && InetAddress.getByName(host).isLoopbackAddress(); // a literal: no lookup
    } catch (UnknownHostException e) {
      return false;
    }
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

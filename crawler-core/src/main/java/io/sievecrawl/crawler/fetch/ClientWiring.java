package io.sievecrawl.crawler.fetch;

import io.sievecrawl.config.FetchSettings;
import io.sievecrawl.config.Setting;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import okhttp3.ConnectionSpec;
import okhttp3.CookieJar;
import okhttp3.EventListener;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crawl's {@link OkHttpClient}s as the fetch settings want them: the proxies {@link ProxyRoutes} chooses, host
 * names pinned and the local network guarded ({@link PinnedDns}, {@link PrivateAddresses}), no automatic redirects
 * (the crawler follows them hop by hop), connect/read/whole-call timeouts, and the network interceptors in their
 * order: the send gate, reads without a timer ({@link UntimedReads}), the user's extra headers, the capture. One client for cleartext, which loads no TLS
 * certificates, and one made from it for TLS, with the certificates {@link TlsTrust} trusts.
 */
final class ClientWiring {
  private static final Logger log = LoggerFactory.getLogger(ClientWiring.class);
  private static final List<ConnectionSpec> CLEARTEXT = List.of(ConnectionSpec.CLEARTEXT);
  private static final List<ConnectionSpec> TLS = List.of(ConnectionSpec.MODERN_TLS, ConnectionSpec.CLEARTEXT);

  private ClientWiring() {}

  /**
   * The client for cleartext: it refuses https URLs (see {@link #tls}).
   *
   * @param mayBeLocal the hosts that may resolve to local addresses (a proxy host may, always)
   * @param takesCredentials the origins the credentials among the extra headers go to
   * @param capture the interceptor every exchange goes through as well, or {@code null}: a capturing client speaks
   *     HTTP/1.1 only, so that what is captured is what went over the wire
   * @param cookies the crawl's cookies, or {@code null} when fetch.cookies is off
   * @param events told of each connection opened and handshake made
   * @throws IllegalArgumentException if a proxy environment variable holds no usable proxy URL, naming it
   */
  static OkHttpClient build(FetchSettings fetch, Predicate<String> mayBeLocal, Predicate<String> takesCredentials,
      Interceptor capture, CookieJar cookies, EventListener events) {
    ProxyRoutes proxies = ProxyRoutes.of(fetch.proxy(), System.getenv());
    if (!proxies.describe().equals("none")) {
      log.info("proxies: {}", proxies.describe());
    }
    OkHttpClient.Builder builder = proxies.applyTo(new OkHttpClient.Builder())
        .dns(new PinnedDns(fetch.pins(), // a proxy may well be on the local network
            PrivateAddresses.asDns(mayBeLocal.or(proxies::isProxyHost))))
        .followRedirects(false)
        .followSslRedirects(false)
        .connectTimeout(fetch.connectTimeout())
        .readTimeout(fetch.readTimeout())
        .writeTimeout(fetch.readTimeout())
        .callTimeout(fetch.callTimeout())
        .eventListener(events)
        .connectionSpecs(CLEARTEXT);
    if (fetch.insecureTls()) {
      log.warn("{} is on: TLS certificates are not checked, so anyone between the crawler and a site can pose as"
          + " the site", Setting.INSECURE_TLS.key());
    }
    if (cookies != null) {
      builder.cookieJar(cookies);
    }
    builder.addNetworkInterceptor(SendGate.INTERCEPTOR); // first: a request it refuses is neither changed nor recorded
    builder.addNetworkInterceptor(UntimedReads.INTERCEPTOR); // the read timeout kept by OkHttp's source, not a timer
    if (!fetch.headers().isEmpty()) {
      builder.addNetworkInterceptor(new RequestHeaders(fetch.headers(), takesCredentials)); // before the capture
    }
    if (capture != null) {
      builder.addNetworkInterceptor(capture).protocols(List.of(Protocol.HTTP_1_1));
    }
    return builder.build();
  }

  /**
   * The client for TLS, made from {@code cleartext}: now when the settings name the certificates to trust (a CA file
   * or none at all), so that what is wrong with them stops the crawl at its start; otherwise when first asked for,
   * which loads the JDK's trust store.
   */
  static Supplier<OkHttpClient> tls(OkHttpClient cleartext, FetchSettings fetch) {
    Supplier<OkHttpClient> make = () -> TlsTrust.applyTo(cleartext.newBuilder().connectionSpecs(TLS), fetch).build();
    if (fetch.insecureTls() || !fetch.caFile().isEmpty()) {
      OkHttpClient made = make.get();
      return () -> made;
    }
    return make;
  }
}

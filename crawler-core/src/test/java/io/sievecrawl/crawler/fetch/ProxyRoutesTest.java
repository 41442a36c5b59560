package io.sievecrawl.crawler.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import java.io.IOException;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

class ProxyRoutesTest {
  private static String route(ProxyRoutes routes, String url) {
    Proxy proxy = routes.select(URI.create(url)).get(0);
    return proxy.type() == Proxy.Type.DIRECT ? "direct" : proxy.address().toString().replace("/<unresolved>", "");
  }

  @Test
  void eachSchemeTakesItsOwnVariableAsCurlDoes() {
    ProxyRoutes routes = ProxyRoutes.of("", Map.of("http_proxy", "http://plain.example:3128",
        "HTTPS_PROXY", "secure.example:8443"));
    assertEquals("plain.example:3128", route(routes, "http://site.example/"));
    assertEquals("secure.example:8443", route(routes, "https://site.example/"));
    ProxyRoutes upperCase = ProxyRoutes.of("", Map.of("HTTP_PROXY", "http://p.example:1"));
    assertEquals("direct", route(upperCase, "http://site.example/"),
        "HTTP_PROXY may come from a request header in a CGI program: only http_proxy is read");
    assertEquals("direct", route(ProxyRoutes.of("", Map.of()), "https://site.example/"));
  }

  @Test
  void theSettingWinsOverTheEnvironmentForBothSchemes() {
    Map<String, String> env = Map.of("http_proxy", "http://env.example:1", "https_proxy", "http://env.example:2");
    ProxyRoutes set = ProxyRoutes.of("http://setting.example:3128", env);
    assertEquals("setting.example:3128", route(set, "http://site.example/"));
    assertEquals("setting.example:3128", route(set, "https://site.example/"));
    assertEquals("direct", route(ProxyRoutes.of("none", env), "https://site.example/"));
    assertEquals("none", ProxyRoutes.of("none", env).describe());
  }

  @Test
  void noProxyHostsAndLoopbackAreReachedDirectly() {
    ProxyRoutes routes = ProxyRoutes.of("http://p.example:3128",
        Map.of("no_proxy", " .internal.example, intranet:8080,10.1.2.3,[2001:db8::1], *.corp.example,"
            + "172.16.0.0/12,fd00::/8,bad/99"));
    for (String direct : new String[] {"http://internal.example/", "https://a.b.internal.example/",
        "http://intranet/", "http://10.1.2.3/", "http://[2001:db8::1]/", "http://[2001:db8:0:0:0:0:0:1]/",
        "http://x.corp.example/", "http://172.31.255.1/", "http://[fd12::5]/", "http://localhost:8080/",
        "http://app.localhost/", "http://127.0.0.5/", "http://[::1]:9/"}) {
      assertEquals("direct", route(routes, direct), direct);
    }
    for (String proxied : new String[] {"http://notinternal.example/", "http://intranet.example/",
        "http://10.1.2.30/", "http://192.168.1.1/", "http://172.32.0.1/", "http://[fe80::1]/", "http://bad/"}) {
      assertEquals("p.example:3128", route(routes, proxied), proxied);
    }
    ProxyRoutes none = ProxyRoutes.of("http://p.example:3128", Map.of("NO_PROXY", "*"));
    assertEquals("direct", route(none, "http://a.example/"));
  }

  @Test
  void aVariableWithNoUsableProxyIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ProxyRoutes.of("", Map.of("https_proxy", "socks5h://127.0.0.1:1080")));
    assertEquals("environment variable https_proxy: must be an HTTP proxy URL, http://[USER:PASSWORD@]HOST[:PORT]"
        + " (socks5h proxies are not supported)", e.getMessage());
  }

  @Test
  void theProxysHostMayBeLocalAndItsCredentialsGoWithEveryRequestButNotIntoTheArchive() throws IOException {
    WireMockServer proxy = new WireMockServer(options().dynamicPort());
    proxy.start();
    try {
      // the proxy answers for a host that does not resolve here: a response proves the request went through it
      proxy.stubFor(get(urlEqualTo("/page")).withHeader("Proxy-Authorization", absent())
          .willReturn(aResponse().withStatus(407).withHeader("Proxy-Authenticate", "Basic realm=\"proxy\"")));
      proxy.stubFor(get(urlEqualTo("/page")).withHeader("Host", equalTo("site.invalid"))
          .withHeader("Proxy-Authorization", equalTo("Basic bWU6c8OpY3JldA==")).atPriority(1)
          .willReturn(aResponse().withBody("through the proxy")));
      ProxyRoutes routes = ProxyRoutes.of("", Map.of("http_proxy", "http://me:s%C3%A9cret@127.0.0.1:" + proxy.port()));
      assertTrue(routes.isProxyHost("127.0.0.1"));
      assertFalse(routes.isProxyHost("site.invalid"));
      OkHttpClient client = routes.applyTo(new OkHttpClient.Builder())
          .dns(PrivateAddresses.asDns(routes::isProxyHost)).build();
      Request page = new Request.Builder().url("http://site.invalid/page").build();
      try (Response response = client.newCall(page).execute()) {
        assertEquals(200, response.code());
        assertEquals("through the proxy", response.body().string());
        byte[] archived = CaptureInterceptor.requestHead(response.networkResponse().request(), true);
        assertFalse(new String(archived, StandardCharsets.ISO_8859_1).contains("Proxy-Authorization"));
        assertTrue(response.networkResponse().request().header("Proxy-Authorization") != null, "it was sent");
      }
      assertEquals(1, proxy.findAll(getRequestedFor(urlEqualTo("/page"))).size(), "sent at once, not after a 407");
    } finally {
      proxy.stop();
    }
  }
}

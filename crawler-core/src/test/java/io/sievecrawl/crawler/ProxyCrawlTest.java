package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Scope;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.result.ErrorKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A crawl through an HTTP proxy: a site whose name does not resolve here is reached through the proxy alone. */
class ProxyCrawlTest {
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite(); // the proxy, which answers for the site itself
  private final WireMockServer proxy = loopback.server();

  @BeforeEach
  void serve() {
    proxy.stubFor(get(urlEqualTo("/robots.txt"))
        .willReturn(aResponse().withBody("User-agent: *\nDisallow: /private\n")));
    Html.serve(proxy, "/", Html.page("home", "/a", "/private/x"));
    Html.serve(proxy, "/a", Html.page("a"));
  }

  private CollectingSink crawl(String proxySetting) {
    CollectingSink sink = new CollectingSink();
    // scope any without private addresses: the proxy on loopback is still reached, as the proxy
    Crawler crawler = Crawler.create(CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO)
        .set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L).set(Setting.SCOPE, Scope.ANY)
        .set(Setting.PROXY, proxySetting).build(), sink);
    crawler.run(List.of("http://site.invalid/"));
    assertEquals(List.of(), crawler.workerFailures());
    return sink;
  }

  @Test
  void everyRequestGoesThroughTheProxyRobotsTxtIncluded() {
    CollectingSink sink = crawl(loopback.root()); // a name resolved to a local address
    assertEquals(List.of("http://site.invalid/", "http://site.invalid/a"), sink.fetchedUrls());
    assertEquals(200, sink.get("http://site.invalid/a").status());
    assertEquals(ErrorKind.ROBOTS_DISALLOWED, sink.get("http://site.invalid/private/x").errorKind());
    List<LoggedRequest> seen = proxy.findAll(getRequestedFor(anyUrl()));
    assertEquals(List.of("site.invalid /", "site.invalid /a", "site.invalid /robots.txt"),
        seen.stream().map(r -> r.getHeader("Host") + " " + r.getUrl()).sorted().toList());
  }

  @Test
  void withNoProxyTheNameDoesNotResolve() {
    CollectingSink sink = crawl("none");
    assertEquals(List.of(), sink.fetchedUrls());
    assertEquals(ErrorKind.ORIGIN_UNREACHABLE, sink.get("http://site.invalid/").errorKind(), "unknown host");
    assertEquals(0, proxy.findAll(getRequestedFor(anyUrl())).size());
  }
}

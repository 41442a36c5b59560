package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A site that sets a cookie on its home page and shows its members' pages only to visitors who send it back: the
 * crawl gets in as a browser would, and a cookie goes to no other site.
 */
class CookieTest {
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite();
  private final WireMockServer server = loopback.server();
  private String site;
  private String otherSite;

  @BeforeEach
  void serve() {
    site = loopback.root();
    otherSite = "http://127.0.0.1:" + server.port(); // another host name, so another site, on the same server
    server.stubFor(get(urlEqualTo("/")).withHeader("Host", equalTo("localhost:" + server.port()))
        .willReturn(aResponse().withHeader("Content-Type", "text/html")
            .withHeader("Set-Cookie", "session=abc; Path=/; HttpOnly")
            .withBody(Html.page("home", "/members", "/gate", "/never", "/door", "/ping"))));
    Html.serve(server, "/other", Html.page("other", "/members"));
    server.stubFor(get(urlEqualTo("/members")).willReturn(aResponse().withStatus(403)));
    server.stubFor(get(urlEqualTo("/members")).withCookie("session", equalTo("abc")).atPriority(1)
        .willReturn(aResponse().withHeader("Content-Type", "text/html").withBody(Html.page("members", "/inner"))));
    Html.serve(server, "/inner", Html.page("inner"));
    // a cookie check: the page sets a cookie and sends the visitor back to itself, then shows itself to one that has it
    server.stubFor(get(urlEqualTo("/gate")).willReturn(aResponse().withStatus(302)
        .withHeader("Set-Cookie", "checked=yes").withHeader("Location", "/gate")));
    server.stubFor(get(urlEqualTo("/gate")).withCookie("checked", equalTo("yes")).atPriority(1)
        .willReturn(aResponse().withHeader("Content-Type", "text/html").withBody(Html.page("gate", "/behind"))));
    Html.serve(server, "/behind", Html.page("behind"));
    // a cookie check on a page of its own: it sets the cookie and sends the visitor back where it came from
    server.stubFor(get(urlEqualTo("/door")).willReturn(aResponse().withStatus(302).withHeader("Location", "/check")));
    server.stubFor(get(urlEqualTo("/check")).willReturn(aResponse().withStatus(302)
        .withHeader("Set-Cookie", "door=open; Path=/").withHeader("Location", "/door")));
    server.stubFor(get(urlEqualTo("/door")).withCookie("door", equalTo("open")).atPriority(1)
        .willReturn(aResponse().withHeader("Content-Type", "text/html").withBody(Html.page("door", "/room"))));
    Html.serve(server, "/room", Html.page("room"));
    // two pages that send each other round whatever the visitor sends
    server.stubFor(get(urlEqualTo("/ping")).willReturn(aResponse().withStatus(302).withHeader("Location", "/pong")));
    server.stubFor(get(urlEqualTo("/pong")).willReturn(aResponse().withStatus(302).withHeader("Location", "/ping")));
    // one whose cookie is never kept (it is for another site): the loop ends at fetch.max-redirects
    server.stubFor(get(urlEqualTo("/never")).willReturn(aResponse().withStatus(302)
        .withHeader("Set-Cookie", "x=1; Domain=example.com").withHeader("Location", "/never")));
  }

  private CollectingSink crawl(boolean cookies) {
    CollectingSink sink = new CollectingSink();
    Crawler crawler = Crawler.create(CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO)
        .set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L).set(Setting.COOKIES, cookies).build(), sink);
    CrawlSummary summary = crawler.run(List.of(site + "/", otherSite + "/other"));
    assertEquals(List.of(), crawler.workerFailures());
    assertTrue(summary.accountsForEveryAdmittedUrl(), summary.toString());
    return sink;
  }

  @Test
  void aCookieSetByASiteIsSentBackToItAndToNoOtherSite() {
    CollectingSink sink = crawl(true);
    assertEquals(200, sink.get(site + "/members").status());
    assertEquals(200, sink.get(site + "/inner").status(), "found through the page the cookie opened");
    assertEquals(403, sink.get(otherSite + "/members").status(), "127.0.0.1 never got the cookie of localhost");
    List<LoggedRequest> withCookie = server.findAll(getRequestedFor(anyUrl()).withHeader("Cookie", matching(".*")));
    assertEquals(List.of("localhost /behind", "localhost /check", "localhost /door", "localhost /gate",
        "localhost /inner", "localhost /members", "localhost /never", "localhost /ping", "localhost /pong",
        "localhost /room"), withCookie.stream()
        .map(r -> r.getHost() + " " + r.getUrl()).distinct().sorted().toList(),
        "every later request to the site, no other");
  }

  @Test
  void aPageThatRedirectsToItselfWithACookieIsFetchedAgainWithIt() {
    CollectingSink sink = crawl(true);
    CrawlResult gate = sink.get(site + "/gate");
    assertEquals(200, gate.status());
    assertEquals(2, gate.attempts(), "one request without the cookie, one with it");
    assertEquals(200, sink.get(site + "/behind").status());
    CrawlResult never = sink.get(site + "/never");
    assertEquals(ErrorKind.TOO_MANY_REDIRECTS, never.errorKind());
    assertEquals(6, server.countRequestsMatching(getRequestedFor(urlEqualTo("/never")).build()).getCount(),
        "the first request and fetch.max-redirects (5) more");
    assertEquals(1L, sink.countsByUrl().get(site + "/gate"), "one record per URL");
  }

  @Test
  void aPageThatRedirectsToACookieCheckThatSendsItBackIsFetchedAgainWithTheCookie() {
    CollectingSink sink = crawl(true);
    assertEquals(List.of(302, 200), sink.results().stream().filter(r -> r.url().equals(site + "/door"))
        .map(CrawlResult::status).toList(), "its redirect, then the page");
    CrawlResult again = sink.results().stream().filter(r -> r.url().equals(site + "/door") && r.status() == 200)
        .findFirst().orElseThrow();
    assertEquals(site + "/check", again.referrer());
    assertEquals(2, again.attempts(), "its second fetch");
    assertEquals(200, sink.get(site + "/room").status(), "the links of the page behind the check are followed");
    assertEquals(null, sink.countsByUrl().get(site + "/check"), "the check's claim ends with the page's record");
    assertEquals(1, server.countRequestsMatching(getRequestedFor(urlEqualTo("/check")).build()).getCount());
  }

  @Test
  void aRedirectLoopGoesRoundOnceMoreAtMost() {
    CollectingSink sink = crawl(true);
    // the crawler holds the site's session cookie, so /ping is asked again once; then /pong is a seen URL
    assertEquals(2, server.countRequestsMatching(getRequestedFor(urlEqualTo("/ping")).build()).getCount());
    assertEquals(1, server.countRequestsMatching(getRequestedFor(urlEqualTo("/pong")).build()).getCount());
    assertEquals(2L, sink.countsByUrl().get(site + "/ping"));
    assertEquals(null, sink.countsByUrl().get(site + "/pong"));
    assertEquals(site + "/pong", sink.get(site + "/ping").redirectTo());

    CollectingSink withoutCookies = crawl(false);
    assertEquals(1L, withoutCookies.countsByUrl().get(site + "/ping"), "without a cookie nothing changes for it");
    assertEquals(1L, withoutCookies.countsByUrl().get(site + "/door"));
  }

  @Test
  void withCookiesOffNoneIsSent() {
    CollectingSink sink = crawl(false);
    assertEquals(403, sink.get(site + "/members").status());
    assertEquals(List.of(otherSite + "/members", otherSite + "/other", site + "/", site + "/check", site + "/door",
        site + "/gate", site + "/members", site + "/never", site + "/ping", site + "/pong"), sink.fetchedUrls());
    assertEquals(302, sink.get(site + "/gate").status(), "without cookies a cookie check is a redirect to a seen URL");
    server.verify(0, getRequestedFor(anyUrl()).withHeader("Cookie", matching(".*")));
  }
}

package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
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

class RobotsTest {
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite();
  private final WireMockServer server = loopback.server();
  private String root;

  @BeforeEach
  void serve() {
    root = loopback.root();
    Html.serve(server, "/", Html.page("root", "/open", "/closed/x", "/only-others"));
    for (String path : List.of("/open", "/closed/x", "/only-others")) {
      Html.serve(server, path, Html.page(path));
    }
  }

  private CollectingSink crawl() {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L)
        .set(Setting.ROBOTS_RETRY, Duration.ofMillis(300)).build();
    CollectingSink sink = new CollectingSink();
    Crawler crawler = Crawler.create(settings, sink);
    crawler.run(List.of(root + "/"));
    assertEquals(List.of(), crawler.workerFailures());
    return sink;
  }

  @Test
  void theGroupForOurNameWinsOverTheWildcard() {
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withBody(
        "User-agent: *\nDisallow: /\n\nUser-agent: sievecrawl\nDisallow: /closed/\n")));
    assertEquals(List.of(root + "/", root + "/only-others", root + "/open"),
        crawl().fetchedUrls());
  }

  @Test
  void aBrowserLikeUserAgentStillObeysTheGroupForOurToken() {
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withBody(
        "User-agent: mozilla\nDisallow: /\n\nUser-agent: sievecrawl\nDisallow: /closed/\n")));
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L).set(Setting.USER_AGENT, "Mozilla/5.0 (compatible; sievecrawl/1.0)").build();
    CollectingSink sink = new CollectingSink();
    Crawler.create(settings, sink).run(List.of(root + "/"));
    assertEquals(List.of(root + "/", root + "/only-others", root + "/open"), sink.fetchedUrls());
  }

  @Test
  void aMissingRobotsTxtAllowsEverything() {
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(404)));
    assertEquals(4, crawl().fetched().size());
  }

  @Test
  void aServerErrorOnRobotsTxtHoldsTheHostBackUntilItAnswers() {
    server.stubFor(get(urlEqualTo("/robots.txt")).inScenario("robots").whenScenarioStateIs(STARTED)
        .willReturn(aResponse().withStatus(503)).willSetStateTo("up"));
    server.stubFor(get(urlEqualTo("/robots.txt")).inScenario("robots").whenScenarioStateIs("up")
        .willReturn(aResponse().withBody("User-agent: *\nDisallow: /closed/\n")));
    CollectingSink sink = crawl();
    assertEquals(List.of(root + "/", root + "/only-others", root + "/open"), sink.fetchedUrls());
    CrawlResult skipped = sink.get(root + "/closed/x");
    assertEquals(ErrorKind.ROBOTS_DISALLOWED, skipped.errorKind(), "a disallowed URL is in the results with why");
    assertEquals(null, skipped.status());
    assertEquals(0, skipped.attempts());
    server.verify(2, getRequestedFor(urlEqualTo("/robots.txt")));
  }

  @Test
  void aRobotsTxtThatNeverAnswersMakesTheHostSkippedAfterThreeTries() {
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(500)));
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L)
        .set(Setting.ROBOTS_RETRY, Duration.ofMillis(100)).build();
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary = Crawler.create(settings, sink).run(List.of(root + "/"));
    assertEquals(0, summary.fetched());
    assertEquals(1L, summary.skipped().get("robots-unavailable"));
    server.verify(3, getRequestedFor(urlEqualTo("/robots.txt")));
    assertEquals(ErrorKind.ROBOTS_UNAVAILABLE, sink.get(root + "/").errorKind(), "the seed's record says why");
    assertTrue(summary.givenUp().get(root).startsWith("robots.txt failed 3 times in a row"),
        summary.givenUp().toString());
    assertTrue(summary.reachedNothing());
  }

  @Test
  void aSeedRedirectToAnotherDomainDoesNotWidenTheScope() {
    // localhost and 127.0.0.1 are different registrable domains, as a site and its login provider would be.
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(404)));
    server.stubFor(get(urlEqualTo("/moved")).willReturn(aResponse().withStatus(301)
        .withHeader("Location", "http://127.0.0.1:" + server.port() + "/")));
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L)
        .build();
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary = Crawler.create(settings, sink).run(List.of(root + "/moved"));
    assertEquals(List.of(root + "/moved"), sink.results().stream().map(r -> r.url()).toList());
    assertEquals(1L, summary.notAdmitted().get("out-of-scope-host"));
  }

  @Test
  void robotsTxtRedirectsAreFollowed() {
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(301)
        .withHeader("Location", "/real-robots.txt")));
    server.stubFor(get(urlEqualTo("/real-robots.txt")).willReturn(aResponse().withBody("User-agent: *\nDisallow: /open\n")));
    assertEquals(List.of(root + "/", root + "/closed/x", root + "/only-others"),
        crawl().fetchedUrls());
  }
}

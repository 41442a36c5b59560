package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Scope;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.result.CrawlResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A slow host holds at most its own share of workers; the fast host's pages never wait behind it. */
class SlowHostTest {
  private static final int FAST_PAGES = 40;
  private static final int SLOW_PAGES = 6;
  private static final int SLOW_MILLIS = 2_000;
  @RegisterExtension
  final LoopbackSite fastSite = new LoopbackSite();
  @RegisterExtension
  final LoopbackSite slowSite = new LoopbackSite();
  private final WireMockServer fast = fastSite.server();
  private final WireMockServer slow = slowSite.server();

  @BeforeEach
  void serve() {
    List<String> fastLinks = new ArrayList<>();
    for (int i = 0; i < FAST_PAGES; i++) {
      fastLinks.add("/p" + i);
      page(fast, "/p" + i, Html.page("fast " + i), 0);
    }
    page(fast, "/", Html.page("fast", fastLinks.toArray(String[]::new)), 0);
    List<String> slowLinks = new ArrayList<>();
    for (int i = 0; i < SLOW_PAGES; i++) {
      slowLinks.add("/s" + i);
      page(slow, "/s" + i, Html.page("slow " + i), SLOW_MILLIS);
    }
    page(slow, "/", Html.page("slow", slowLinks.toArray(String[]::new)), 0);
    fast.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(404)));
    slow.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(404)));
  }

  @Test
  void theFastHostFinishesWhileTheSlowHostIsStillServingItsFirstPages() {
    CrawlSettings settings = CrawlSettings.builder()
        .set(Setting.SCOPE, Scope.ANY)
        .set(Setting.CONCURRENCY, 4)
        .set(Setting.HOST_CONCURRENCY, 2)
        .set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L)
        .build();
    CollectingSink sink = new CollectingSink();
    Crawler crawler = Crawler.create(settings, sink);
    // The slow host is seeded first, so its URLs reach the frontier before the fast host's.
    crawler.run(List.of("http://127.0.0.1:" + slow.port() + "/", fastSite.root() + "/"));

    assertEquals(List.of(), crawler.workerFailures());
    assertEquals(1 + FAST_PAGES + 1 + SLOW_PAGES, sink.results().size());
    Instant fastDone = sink.results().stream().filter(r -> r.url().contains("localhost"))
        .map(SlowHostTest::end).max(Instant::compareTo).orElseThrow();
    Instant firstSlowPageDone = sink.results().stream().filter(r -> r.url().contains("/s"))
        .map(SlowHostTest::end).min(Instant::compareTo).orElseThrow();
    // With 4 workers and 2 slots for the slow host, the other 2 workers serve the fast host from the start; a
    // worker that waited on the slow host's queue would leave fast pages until after the first slow pages.
    assertTrue(fastDone.isBefore(firstSlowPageDone),
        "fast host done at " + fastDone + ", first slow page done at " + firstSlowPageDone);
  }

  private static Instant end(CrawlResult r) {
    return r.fetchedAt().plusMillis(r.fetchMillis());
  }

  private static void page(WireMockServer server, String path, String body, int delayMillis) {
    server.stubFor(get(urlEqualTo(path)).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody(body).withFixedDelay(delayMillis)));
  }
}

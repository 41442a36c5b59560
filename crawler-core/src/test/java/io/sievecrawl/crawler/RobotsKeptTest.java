package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.fetch.CallTracker;
import io.sievecrawl.crawler.fetch.ConnectionPools;
import io.sievecrawl.crawler.job.RobotsFile;
import io.sievecrawl.crawler.robots.RobotsPolicy;
import io.sievecrawl.crawler.robots.RobotsStore;
import io.sievecrawl.crawler.robots.RobotsVerdict;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.testing.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * robots.txt kept with the crawl until it expires (RFC 9309: 24 hours at most): a resumed crawl, or an agent taking an
 * origin over, uses the rules kept rather than fetching robots.txt again; rules past their lifetime are fetched again.
 */
class RobotsKeptTest {
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite();
  private final WireMockServer server = loopback.server();
  private final FakeClock clock = new FakeClock();
  private String root;
  @TempDir
  Path dir;

  @BeforeEach
  void serve() {
    root = loopback.root();
    Html.serve(server, "/", Html.page("root", "/open", "/closed/x"));
    Html.serve(server, "/open", Html.page("open"));
    Html.serve(server, "/closed/x", Html.page("closed"));
    robots("User-agent: *\nDisallow: /closed/\n");
  }

  private void robots(String text) {
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withBody(text)));
  }

  private int robotsFetches() {
    return server.findAll(getRequestedFor(urlEqualTo("/robots.txt"))).size();
  }

  private CollectingSink crawl(RobotsStore store, long maxPages, String... seeds) {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L).set(Setting.MAX_PAGES, maxPages).build();
    CollectingSink sink = new CollectingSink();
    Crawler crawler = Crawler.builder(settings, sink).robotsStore(store).clock(clock).build();
    crawler.run(List.of(seeds));
    assertEquals(List.of(), crawler.workerFailures());
    return sink;
  }

  @Test
  void aResumedCrawlUsesTheRulesItsDirectoryKeptInsteadOfFetchingRobotsTxtAgain() throws Exception {
    try (RobotsFile kept = RobotsFile.open(dir, clock, 1 << 20)) {
      crawl(kept, 1, root + "/");
    }
    assertEquals(1, robotsFetches());
    robots("User-agent: *\nDisallow: /\n"); // changed since: a fetch now would disallow everything

    clock.advance(Duration.ofHours(23));
    CollectingSink resumed;
    try (RobotsFile kept = RobotsFile.open(dir, clock, 1 << 20)) {
      resumed = crawl(kept, 10, root + "/open", root + "/closed/x");
    }
    assertEquals(1, robotsFetches(), "robots.txt fetched once in both runs");
    assertEquals(List.of(root + "/open"), resumed.fetchedUrls(), "the kept rules: /closed/ disallowed");

    clock.advance(Duration.ofHours(1)); // 24 hours after the fetch: the kept rules have expired
    try (RobotsFile kept = RobotsFile.open(dir, clock, 1 << 20)) {
      assertEquals(List.of(), crawl(kept, 10, root + "/open").fetchedUrls(), "the new rules disallow it");
    }
    assertEquals(2, robotsFetches());
  }

  @Test
  void rulesPastTheirLifetimeAreFetchedAgainWhileTheOldOnesAnswerAndKeptIfRobotsTxtFailsThen() throws Exception {
    Map<String, RobotsStore.Kept> saved = new ConcurrentHashMap<>();
    RobotsStore store = new RobotsStore() {
      @Override
      public Kept load(String origin) {
        return saved.get(origin);
      }

      @Override
      public void save(String origin, Kept kept) {
        saved.put(origin, kept);
      }
    };
    Url closed = Url.ofCanonical(root + "/closed/x");
    try (RobotsPolicy robots = new RobotsPolicy(ConnectionPools.of(new OkHttpClient(), 8, Duration.ofSeconds(30)), new CallTracker(), "sievecrawl/test",
        "sievecrawl", Duration.ofSeconds(10), Duration.ofMinutes(5), 1 << 20, clock, store)) {
      assertEquals(RobotsVerdict.Decision.PENDING, settle(robots, closed));
      assertEquals(RobotsVerdict.Decision.DISALLOWED, robots.verdict(closed, () -> { }).decision());
      assertEquals(clock.instant().plus(RobotsPolicy.LIFETIME), saved.get(root).expires(), "kept for 24 hours");

      robots("User-agent: *\nDisallow:\n");
      clock.advance(Duration.ofHours(23));
      assertEquals(RobotsVerdict.Decision.DISALLOWED, robots.verdict(closed, () -> { }).decision());
      assertEquals(1, robotsFetches(), "23 hours on: the rules still hold");
      clock.advance(Duration.ofHours(1));
      assertEquals(RobotsVerdict.Decision.DISALLOWED, settle(robots, closed), "the old rules answer meanwhile");
      assertEquals(RobotsVerdict.Decision.ALLOWED, robots.verdict(closed, () -> { }).decision(), "the new rules");
      assertEquals(2, robotsFetches());

      server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(503)));
      clock.advance(Duration.ofHours(24));
      settle(robots, closed);
      assertEquals(RobotsVerdict.Decision.ALLOWED, robots.verdict(closed, () -> { }).decision(),
          "robots.txt cannot be had: the rules it had go on answering (RFC 9309 2.4)");
      assertEquals(3, robotsFetches());
    }
  }

  /** Asks for a verdict that starts a fetch of robots.txt, and waits for the fetch; returns that first verdict. */
  private static RobotsVerdict.Decision settle(RobotsPolicy robots, Url url) throws InterruptedException {
    CountDownLatch settled = new CountDownLatch(1);
    RobotsVerdict.Decision first = robots.verdict(url, settled::countDown).decision();
    assertTrue(settled.await(1, TimeUnit.MINUTES), "robots.txt fetched");
    return first;
  }
}

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
import io.sievecrawl.crawler.home.CrawlHome;
import io.sievecrawl.crawler.home.RunOptions;
import io.sievecrawl.crawler.job.DirectoryHome;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.robots.RobotsPolicy;
import io.sievecrawl.crawler.robots.RobotsStore;
import io.sievecrawl.crawler.robots.RobotsVerdict;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.testing.FakeClock;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
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

  private static CrawlSettings settings(long maxPages) {
    return CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L).set(Setting.MAX_PAGES, maxPages).build();
  }

  /** A run of the crawl in {@code home}, as the app runs one. */
  private CollectingSink crawl(CrawlHome home, long maxPages, String... seeds) throws IOException {
    CrawlSettings settings = settings(maxPages);
    home.runStarts(new RunOptions(settings, "filter.n", Ticker.SYSTEM));
    CollectingSink sink = new CollectingSink();
    Crawler crawler = Crawler.builder(settings, sink).home(home).clock(clock).build();
    CrawlSummary summary = crawler.run(List.of(seeds));
    assertEquals(List.of(), crawler.workerFailures());
    home.runEnded(summary.end(), crawler.state());
    return sink;
  }

  @Test
  void aResumedCrawlUsesTheRulesItsDirectoryKeptInsteadOfFetchingRobotsTxtAgain() throws Exception {
    Html.serve(server, "/later", Html.page("later"));
    Path job = dir.resolve("job");
    try (DirectoryHome home = DirectoryHome.create(job, settings(1), List.of(root + "/"), "-", clock)) {
      crawl(home, 1, root + "/");
    }
    assertEquals(1, robotsFetches());
    robots("User-agent: *\nDisallow: /\n"); // changed since: a fetch now would disallow everything

    clock.advance(Duration.ofHours(23));
    CollectingSink resumed;
    try (DirectoryHome home = DirectoryHome.open(job, clock)) {
      resumed = crawl(home, 10); // the first run queued /open and /closed/x
    }
    assertEquals(1, robotsFetches(), "robots.txt fetched once in both runs");
    assertEquals(List.of(root + "/open"), resumed.fetchedUrls(), "the kept rules: /closed/ disallowed");

    clock.advance(Duration.ofHours(1)); // 24 hours after the fetch: the kept rules have expired
    try (DirectoryHome home = DirectoryHome.open(job, clock)) {
      assertEquals(List.of(), crawl(home, 10, root + "/later").fetchedUrls(), "the new rules disallow it");
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
    try (RobotsPolicy robots = new RobotsPolicy(ConnectionPools.of(new OkHttpClient(), 8, Duration.ofSeconds(30)),
        origin -> false, new CallTracker(), "sievecrawl/test", "sievecrawl", Duration.ofSeconds(10),
        Duration.ofMinutes(5), 1 << 20, clock, store)) {
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

package io.sievecrawl.crawler.lease;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.LoopbackSite;
import io.sievecrawl.crawler.fetch.CallTracker;
import io.sievecrawl.crawler.fetch.ConnectionPools;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.report.OriginStats;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.robots.RobotsPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** robots.txt served on loopback: the origin waits for it, then its rules, Crawl-delay and sitemaps hold. */
class RobotsGateTest {
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite();
  private final WireMockServer server = loopback.server();
  private final CountDownLatch woken = new CountDownLatch(1);
  private RobotsPolicy robots;
  private RobotsGate gate;

  @BeforeEach
  void serve() {
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withBody(
        "User-agent: *\nDisallow: /closed/\nCrawl-delay: 2\nSitemap: /sitemap.xml\n")));
    robots = new RobotsPolicy(ConnectionPools.of(new OkHttpClient(), 8, Duration.ofSeconds(30)), new CallTracker(),
        "sievecrawl/test", "sievecrawl", Duration.ofSeconds(10), Duration.ofMinutes(5), 1 << 20, Clock.systemUTC());
    gate = new RobotsGate(robots, CrawlSettings.defaults().robots(), FakeChain.NORMALIZER, new OriginStats(),
        new CrawlStats(), Clock.systemUTC(), origin -> woken.countDown());
  }

  @AfterEach
  void close() {
    robots.close();
  }

  private CrawlTask task(String path) {
    return FakeChain.page(loopback.root() + path);
  }

  /** The first URL of the origin: it waits until robots.txt came, then the origin is woken. */
  private void waitForRobots() throws Exception {
    Outcome.Postpone first = (Outcome.Postpone) gate.handle(FakeChain.of(task("/")));
    assertEquals(Duration.ofHours(1), first.after());
    assertTrue(woken.await(1, TimeUnit.MINUTES), "woken once robots.txt came");
    assertTrue(first.readyNow().getAsBoolean());
  }

  @Test
  void anAllowedUrlPassesAndRobotsTxtsCrawlDelayAndSitemapsSettleAtOnce() throws Exception {
    waitForRobots();
    FakeChain chain = FakeChain.of(task("/open"));
    assertSame(FakeChain.PASSED, gate.handle(chain));

    Outcome.Interim.Robots news = (Outcome.Interim.Robots) chain.settled.get(0);
    assertEquals(Optional.of(Duration.ofSeconds(2)), news.crawlDelay());
    assertEquals(List.of(loopback.root() + "/sitemap.xml"), news.sitemaps().stream().map(CrawlTask::key).toList());
    assertTrue(news.sitemaps().get(0).sitemap());
  }

  @Test
  void aDisallowedUrlIsGivenUpWithARecordSayingWhy() throws Exception {
    waitForRobots();
    FakeChain chain = FakeChain.of(task("/closed/x"));
    Outcome.GivenUp given = (Outcome.GivenUp) gate.handle(chain);
    assertEquals(SkipReason.ROBOTS, given.reason());
    assertEquals(ErrorKind.ROBOTS_DISALLOWED, given.result().errorKind());
    assertEquals(loopback.root() + "/closed/x", given.result().url());
    assertEquals(0, chain.proceeded);
  }

  @Test
  void aRetryPassedTheGateOnItsFirstAttempt() throws Exception {
    assertSame(FakeChain.PASSED, gate.handle(FakeChain.of(task("/closed/x").retry())));
    assertEquals(0, server.getAllServeEvents().size(), "robots.txt not even asked for");
  }
}

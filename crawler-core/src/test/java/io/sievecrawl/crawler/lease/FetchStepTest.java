package io.sievecrawl.crawler.lease;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.CrawlControl;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.LoopbackSite;
import io.sievecrawl.crawler.fetch.PageFetcher;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.schedule.Politeness;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.Sieve;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The fetch step against a loopback server: the request, the pace learning at once, a stopping crawl. */
class FetchStepTest {
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite();
  private final WireMockServer server = loopback.server();
  private final Sieve<CrawlTask> frontier = Sieve.over(BloomFilter.create(1_000, 0.001), CrawlTask::key,
      CrawlTask::queue, "n");
  private final HostScheduler<CrawlTask> scheduler = new HostScheduler<>(frontier,
      Politeness.of(1, Duration.ZERO, true, 5, Duration.ofMinutes(1)), () -> 1_000_000_000L,
      HostScheduler.LeaseObserver.NONE);
  private final CrawlControl control = new CrawlControl(0, 0, () -> 1L, () -> { });
  private final PageFetcher fetcher = PageFetcher.builder(CrawlSettings.defaults(), Clock.systemUTC(), Ticker.SYSTEM)
      .build();
  private final FetchStep step = new FetchStep(fetcher, control, scheduler, url -> true);

  @BeforeEach
  void serve() {
    server.stubFor(get(urlEqualTo("/")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody("<html><title>home</title></html>")));
  }

  @AfterEach
  void close() {
    fetcher.close();
  }

  private FakeChain leased(String path) {
    assertTrue(scheduler.offer(FakeChain.page(loopback.root() + path)));
    return FakeChain.of(scheduler.poll());
  }

  @Test
  void theResponseTeachesTheOriginsPaceAtOnceAndIsPassedOn() throws IOException {
    FakeChain chain = leased("/");
    assertSame(FakeChain.PASSED, step.handle(chain));

    assertEquals(200, chain.passedOn.status());
    assertEquals("<html><title>home</title></html>", new String(chain.passedOn.body()));
    assertEquals(1, chain.settled.size());
    assertSame(chain.passedOn, ((Outcome.Interim.Responded) chain.settled.get(0)).response());
    assertEquals(1, server.getAllServeEvents().size());
  }

  @Test
  void aStoppingCrawlSendsNothingAndLeavesTheLeaseForAResumedOne() throws IOException {
    FakeChain chain = leased("/");
    control.fail(new IOException("the results cannot be written"));
    assertInstanceOf(Outcome.Abandon.class, step.handle(chain));
    assertEquals(0, server.getAllServeEvents().size());
    assertEquals(0, chain.proceeded);
  }

  @Test
  void aResponseThatFailedIsPassedOnForTheStepsAfterToJudge() throws IOException {
    server.stubFor(get(urlEqualTo("/down")).willReturn(aResponse().withStatus(503)));
    FakeChain chain = leased("/down");
    assertSame(FakeChain.PASSED, step.handle(chain));
    assertEquals(503, chain.passedOn.status());
  }
}

package io.sievecrawl.crawler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.crawler.home.MemoryHome;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.home.MemoryHome;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.disk.DiskFrontier;
import io.sievecrawl.sieve.disk.FrontierOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import io.sievecrawl.sieve.testing.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** An Error in a worker ends the crawl as failed, keeps its page for a resumed crawl, and the accounting adds up. */
class WorkerErrorTest {
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite();
  private final WireMockServer server = loopback.server();
  private String root;

  @TempDir
  Path dir;

  @BeforeEach
  void serve() {
    root = loopback.root();
    Html.serve(server, "/", Html.page("root", "/a", "/b", "/c"));
    Html.serve(server, "/a", Html.page("a"));
    Html.serve(server, "/b", Html.page("b"));
    Html.serve(server, "/c", Html.page("c"));
  }

  @Test
  void anOutOfMemoryErrorFailsTheCrawlAndLeavesThePageUnacknowledged() throws Exception {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false).set(Setting.CONCURRENCY, 1)
        .set(Setting.OBEY_ROBOTS, false).set(Setting.FILTER_N, 1_000L).build();
    FrontierOptions options = FrontierOptions.defaults("n").withSyncInterval(Duration.ofHours(1))
        .withCheckpointInterval(Duration.ofHours(1));
    CollectingSink sink = new CollectingSink(r -> {
      if (r.url().endsWith("/b")) {
        throw new OutOfMemoryError("simulated");
      }
    });
    CrawlSummary summary;
    try (DiskFrontier<CrawlTask> frontier = DiskFrontier.open(dir, 1_000, 0.001, CrawlTask.CODEC, CrawlTask::key,
        CrawlTask::queue, options, Ticker.SYSTEM)) {
      try (LogCapture log = LogCapture.of("io.sievecrawl")) { // the error is provoked: asserted on, not printed
        summary = Crawler.builder(settings, sink).home(MemoryHome.over(settings, frontier)).build().run(List.of(root + "/"));
        assertTrue(log.lines().stream().anyMatch(l -> l.startsWith("ERROR the crawl stops: OutOfMemoryError: simulated")),
            log.lines().toString());
      }
    }
    assertEquals(CrawlSummary.End.FAILED, summary.end());
    assertInstanceOf(OutOfMemoryError.class, summary.failure());
    assertTrue(summary.accountsForEveryAdmittedUrl(), summary.toString());
    assertTrue(summary.notFetched() >= 1, "at least /b is left: " + summary.notFetched());

    List<String> left = new ArrayList<>();
    try (DiskFrontier<CrawlTask> frontier = DiskFrontier.open(dir, 1_000, 0.001, CrawlTask.CODEC, CrawlTask::key,
        CrawlTask::queue, options, Ticker.SYSTEM)) {
      for (String queue = frontier.nextQueue(); queue != null; queue = frontier.nextQueue()) {
        for (Claim<CrawlTask> c = frontier.poll(queue); c != null; c = frontier.poll(queue)) {
          left.add(c.task().key());
        }
      }
    }
    assertTrue(left.contains(root + "/b"), "the failed page is done again on resume: " + left);
    assertFalse(left.contains(root + "/"), "the root was completed before the failure");
  }
}

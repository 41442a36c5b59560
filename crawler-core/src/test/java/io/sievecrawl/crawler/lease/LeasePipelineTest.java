package io.sievecrawl.crawler.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.CollectingSink;
import io.sievecrawl.crawler.CrawlControl;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.LastVisit;
import io.sievecrawl.crawler.VisitLog;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.fetch.Revalidation;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.report.OriginStats;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.schedule.Politeness;
import io.sievecrawl.crawler.scope.RequisiteScope;
import io.sievecrawl.crawler.scope.ScopePolicy;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.Sieve;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lease pipeline with scripted steps: their order, what reaches the closer, and a step that fails. */
class LeasePipelineTest {
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-26T00:00:00Z"), ZoneOffset.UTC);
  private static final UrlNormalizer NORMALIZER = new UrlNormalizer(2048, true);
  private static final Url ROOT = NORMALIZER.parse("http://example.test/");

  private final Sieve<CrawlTask> frontier = Sieve.over(BloomFilter.create(1_000, 0.001), CrawlTask::key,
      CrawlTask::queue, "n");
  private final HostScheduler<CrawlTask> scheduler = new HostScheduler<>(frontier,
      Politeness.of(1, Duration.ZERO, true, 5, Duration.ofMinutes(1)), () -> 1_000_000_000L,
      HostScheduler.LeaseObserver.NONE);
  private final List<String> refusedOnce = new ArrayList<>(); // URLs whose first record the sink refuses
  private final CollectingSink sink = new CollectingSink(r -> {
    if (refusedOnce.remove(r.url())) {
      throw new IllegalStateException("a sink bug");
    }
  });
  private final List<String> skipped = new ArrayList<>();
  private final CrawlStats stats = new CrawlStats();
  private final CrawlControl control = new CrawlControl(0, 0, () -> 0L, () -> { });
  private final ScopePolicy scope = new ScopePolicy(CrawlSettings.defaults(), List.of(ROOT));
  private final LeaseCloser closer = new LeaseCloser(scheduler, scope,
      new RequisiteScope(CrawlSettings.defaults().requisites(), scope), sink, stats, new OriginStats(),
      (url, referrer, depth, reason) -> skipped.add(url + " " + reason), VisitLog.NONE, control, CLOCK);

  private LeasePipeline pipeline(LeaseStep... steps) {
    return new LeasePipeline(List.of(steps), closer, NORMALIZER, stats, control, true);
  }

  private HostScheduler.Lease<CrawlTask> leaseOfRoot() {
    assertTrue(scheduler.offer(CrawlTask.seed(ROOT)));
    return scheduler.poll();
  }

  /** A fetch as FetchStep makes it: the origin's pace learns from the response at once. */
  private static LeaseStep fetching(long millis) {
    return chain -> {
      FetchResponse response = ok(millis);
      chain.settleNow(Outcome.Interim.responded(response));
      return chain.proceed(response);
    };
  }

  private static FetchResponse ok(long millis) {
    return new FetchResponse(200, "text/html", "utf-8", null, null, null, false, new byte[0], 0, false,
        CLOCK.instant(), millis, null, null);
  }

  @Test
  void stepsRunInOrderAndOneThatDecidesEndsTheChain() {
    List<String> ran = new ArrayList<>();
    LeaseStep first = chain -> {
      ran.add("first");
      return chain.proceed(ok(10));
    };
    LeaseStep deciding = chain -> {
      ran.add("deciding");
      return Outcome.complete(chain.record().withError(ErrorKind.NOT_A_SITEMAP, "decided here"));
    };
    LeaseStep never = chain -> {
      ran.add("never");
      return chain.proceed();
    };
    pipeline(first, deciding, never).process(leaseOfRoot());

    assertEquals(List.of("first", "deciding"), ran);
    assertEquals(1, sink.results().size());
    assertEquals("decided here", sink.results().get(0).error());
    assertEquals(0, frontier.stats().inFlight(), "the lease was completed");
  }

  @Test
  void aResponseNoStepReadsIsRecordedAsItCame() {
    pipeline(chain -> chain.proceed(ok(10))).process(leaseOfRoot());

    CrawlResult record = sink.results().get(0);
    assertEquals("http://example.test/", record.url());
    assertEquals(200, record.status());
    assertEquals(1, record.attempts());
    assertNull(record.errorKind());
    assertEquals(List.of(), record.links(), "results.links on: a page without links lists none");
  }

  @Test
  void aPagesLinksPassScopeAndTheFrontierAndTheRecordListsTheirFate() {
    LeaseStep fetch = chain -> chain.proceed(ok(10));
    LeaseStep read = chain -> {
      CrawlTask task = chain.task();
      List<CrawlTask> links = List.of(task.link(NORMALIZER.parse("http://example.test/a")),
          task.link(NORMALIZER.parse("http://elsewhere.test/")),
          task.link(NORMALIZER.parse("http://example.test/")));
      return Outcome.complete(chain.record()).withLinks(new Outcome.FoundLinks(links, List.of("http://x.test/long")));
    };
    pipeline(fetch, read).process(leaseOfRoot());

    assertEquals(List.of(new CrawlResult.Link("http://example.test/a", null),
        new CrawlResult.Link("http://elsewhere.test/", "out-of-scope-host"),
        new CrawlResult.Link("http://example.test/", "seen"),
        new CrawlResult.Link("http://x.test/long", SkipReason.TOO_LONG.wireName())), sink.results().get(0).links());
    assertEquals(1, frontier.stats().queued(), "only the new link in scope was admitted");
    assertEquals(List.of("http://x.test/long too-long", "http://elsewhere.test/ out-of-scope-host",
        "http://example.test/ seen"), skipped);
  }

  @Test
  void aStepThatThrowsIsRecordedAsAnInternalErrorAndThePaceKeepsWhatItLearned() {
    LeaseStep fetch = fetching(2_000);
    LeaseStep broken = chain -> {
      throw new IllegalStateException("a parser bug");
    };
    pipeline(fetch, broken).process(leaseOfRoot());

    CrawlResult record = sink.results().get(0);
    assertEquals(ErrorKind.INTERNAL, record.errorKind());
    assertEquals(CLOCK.instant(), record.fetchedAt());
    assertEquals(Duration.ofSeconds(10), scheduler.delayOf(ROOT.origin()), "five times the 2 s response");
    assertEquals(0, frontier.stats().inFlight(), "the lease was completed");
    assertNull(control.failure(), "one bad page does not end the crawl");
  }

  @Test
  void aRecordTheSinkRefusesWithARuntimeExceptionIsRecordedAsAnInternalErrorAndTheLeaseEndsOnce() {
    refusedOnce.add("http://example.test/");
    pipeline(fetching(10)).process(leaseOfRoot());

    assertEquals(2, sink.results().size(), "the record refused, then the internal error's");
    assertEquals(ErrorKind.INTERNAL, sink.results().get(1).errorKind());
    assertEquals(0, frontier.stats().inFlight(), "the lease was completed");
    assertNull(scheduler.poll(), "and not handed back");
    assertNull(control.failure());
  }

  @Test
  void aStackOverflowWhileJudgingLinksIsOneBadPageNotTheEndOfTheCrawl() {
    LeaseStep read = chain -> Outcome.complete(chain.record()).withLinks(new Outcome.FoundLinks(
        List.of(chain.task().link(ROOT)), List.of())); // seen: logged as skipped
    // a regular expression of crawl.include can overflow the stack on a long URL: stood in for by the skip log
    LeaseCloser overflowing = new LeaseCloser(scheduler, scope,
        new RequisiteScope(CrawlSettings.defaults().requisites(), scope), sink, stats, new OriginStats(),
        (url, referrer, depth, reason) -> {
          throw new StackOverflowError();
        }, VisitLog.NONE, control, CLOCK);
    new LeasePipeline(List.of(fetching(10), read), overflowing, NORMALIZER, stats, control, true)
        .process(leaseOfRoot());

    assertEquals(ErrorKind.INTERNAL, sink.results().get(0).errorKind());
    assertNull(control.failure(), "the crawl goes on");
    assertEquals(0, frontier.stats().inFlight());
  }

  @Test
  void aTaskHandedBackTakesTheLeasesPlaceWithoutARecord() {
    LeaseStep fetch = chain -> chain.proceed(ok(10));
    LeaseStep retry = chain -> Outcome.handBack(chain.task().retry(), Duration.ZERO);
    pipeline(fetch, retry).process(leaseOfRoot());

    assertEquals(List.of(), sink.results());
    HostScheduler.Lease<CrawlTask> again = scheduler.poll();
    assertEquals(1, again.task().attempt());
  }
  @Test
  void onlyASuccessWithTheLastPayloadDigestIsAnIdenticalPayloadRevisit() {
    String digest = "sha1:AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH";
    Instant captured = Instant.parse("2026-11-19T10:00:00Z");
    CrawlTask removed = new CrawlTask(ROOT, 0, null, 0, 0, false, new LastVisit(captured, 404,
        new Revalidation(null, null, digest, captured), 1, false, 0, false), false);
    assertNull(LeasePipeline.capture(removed, answered(404, digest)).revisit(), "a second 404 is no revisit");
    assertNull(LeasePipeline.capture(removed, answered(500, digest)).revisit());
    assertEquals(CrawlResult.Capture.IDENTICAL_PAYLOAD_DIGEST,
        LeasePipeline.capture(removed, answered(200, digest)).revisit(), "the same payload with a 200 is one");
  }

  private static FetchResponse answered(int status, String payloadDigest) {
    return new FetchResponse(status, "text/html", "utf-8", null, null, null, false, new byte[0], 0, false,
        CLOCK.instant(), 10, null, null, null, null, payloadDigest, null);
  }
}

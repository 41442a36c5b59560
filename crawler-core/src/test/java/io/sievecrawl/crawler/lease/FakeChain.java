package io.sievecrawl.crawler.lease;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import io.sievecrawl.sieve.Claim;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A chain for one step alone: the lease of one task, the response a step before it fetched (if any), and what the
 * step did with it: what it settled at once, and whether it passed the lease on (then it returns {@link #PASSED}).
 */
final class FakeChain implements LeaseStep.Chain {
  static final UrlNormalizer NORMALIZER = new UrlNormalizer(2048, true);
  static final Instant NOW = Instant.parse("2026-11-26T00:00:00Z");
  /** What {@link #proceed} returns: the steps after this one, whatever they would decide. */
  static final Outcome PASSED = new Outcome.Abandon();

  private final HostScheduler.Lease<CrawlTask> lease;
  private FetchResponse response;
  private Url location;
  private CrawlResult record;
  final List<Outcome.Interim> settled = new ArrayList<>();
  int proceeded;
  FetchResponse passedOn; // the response the step passed on, as it fetched or changed it

  private FakeChain(HostScheduler.Lease<CrawlTask> lease) {
    this.lease = lease;
  }

  private FakeChain(CrawlTask task) {
    this(new HostScheduler.Lease<>(new Claim<>(task, 1), task.origin()));
  }

  /** Before a fetch, with a lease a scheduler gave. */
  static FakeChain of(HostScheduler.Lease<CrawlTask> lease) {
    return new FakeChain(lease);
  }

  /** Before a fetch. */
  static FakeChain of(CrawlTask task) {
    return new FakeChain(task);
  }

  /** After {@code response} was fetched for {@code task}. */
  static FakeChain fetched(CrawlTask task, FetchResponse response) {
    FakeChain chain = new FakeChain(task);
    chain.fetched(response);
    return chain;
  }

  static CrawlTask page(String url) {
    return new CrawlTask(url(url), 0, null, 0, 0);
  }

  static Url url(String url) {
    return java.util.Objects.requireNonNull(NORMALIZER.parse(url), url);
  }

  static FetchResponse response(int status, String contentType, String body) {
    byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    return new FetchResponse(status, contentType, "utf-8", null, null, null, false, bytes, bytes.length, false, NOW,
        10, null, null);
  }

  private void fetched(FetchResponse fetched) {
    response = fetched;
    location = LeasePipeline.location(NORMALIZER, task(), fetched);
    record = LeasePipeline.record(task(), fetched, true);
  }

  @Override
  public HostScheduler.Lease<CrawlTask> lease() {
    return lease;
  }

  @Override
  public FetchResponse response() {
    return response;
  }

  @Override
  public Url location() {
    return location;
  }

  @Override
  public CrawlResult record() {
    if (record == null) {
      throw new IllegalStateException("no response fetched");
    }
    return record;
  }

  @Override
  public void settleNow(Outcome.Interim interim) {
    settled.add(interim);
  }

  @Override
  public Outcome proceed() {
    proceeded++;
    return PASSED;
  }

  @Override
  public Outcome proceed(FetchResponse fetched) {
    fetched(fetched);
    passedOn = fetched;
    return proceed();
  }
}

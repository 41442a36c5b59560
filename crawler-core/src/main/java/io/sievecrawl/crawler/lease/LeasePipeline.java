package io.sievecrawl.crawler.lease;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.CrawlControl;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.VisitLog;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.fetch.PageFetcher;
import io.sievecrawl.crawler.fetch.Revalidation;
import io.sievecrawl.crawler.fetch.StoredAs;
import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.report.OriginStats;
import io.sievecrawl.crawler.report.SkipLog;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.crawler.robots.RobotsPolicy;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.scope.RequisiteScope;
import io.sievecrawl.crawler.scope.ScopePolicy;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.PerKeyBudget;
import java.io.IOException;
import java.time.Clock;
import java.util.List;

/**
 * What a worker does with one lease: runs it through the {@link LeaseStep}s in order, then has the {@link
 * LeaseCloser} carry out the {@link Outcome}, so that every lease ends exactly once: completed, handed back, or
 * abandoned (left unacknowledged, so a resumed crawl does it again).
 *
 * <p>A step that throws does not end the crawl: one bad page (a parser that recursed too deep included) is recorded
 * as an internal error and the crawl goes on. A failure to write the results or the crawl directory, or an {@link
 * Error}, stops the crawl and leaves the lease for a resumed one.
 */
public final class LeasePipeline {
  private final List<LeaseStep> steps;
  private final LeaseCloser closer;
  private final UrlNormalizer normalizer;
  private final CrawlStats stats;
  private final CrawlControl control;
  private final boolean recordLinks;

  /**
   * @param steps in the order a lease goes through them; a fetched lease that every step passes on is recorded as it
   *     came
   * @param recordLinks whether the records of fetched URLs carry the links found (results.links)
   */
  LeasePipeline(List<LeaseStep> steps, LeaseCloser closer, UrlNormalizer normalizer, CrawlStats stats,
      CrawlControl control, boolean recordLinks) {
    this.steps = List.copyOf(steps);
    this.closer = closer;
    this.normalizer = normalizer;
    this.stats = stats;
    this.control = control;
    this.recordLinks = recordLinks;
  }

  /**
   * The pipeline of a crawl with these settings: its steps in the order {@link LeaseSteps} puts them, its closer,
   * over what the crawl's leases share.
   */
  public static LeasePipeline of(CrawlSettings settings, Shared crawl) {
    LinkExtractor links = new LinkExtractor(crawl.normalizer(), settings.politeness().honorNofollow(),
        settings.robots().agentName(), settings.crawl().maxLinksPerPage());
    LeaseCloser closer = new LeaseCloser(crawl.scheduler(), crawl.scope(),
        new RequisiteScope(settings.requisites(), crawl.scope()), crawl.sink(), crawl.stats(), crawl.origins(),
        crawl.skips(), crawl.visits(), crawl.control(), crawl.clock());
    return new LeasePipeline(LeaseSteps.of(settings, crawl, closer, links), closer, crawl.normalizer(),
        crawl.stats(), crawl.control(), settings.results().recordLinks());
  }

  /**
   * What the leases of one crawl share: the steps read it, the closer changes it.
   *
   * @param scheduler the origins' pace and the frontier behind it; whether a lease is still this agent's
   * @param robots {@code null} when robots.txt is not obeyed
   * @param scope which URLs belong to the crawl (a requisite's scope derives from it)
   * @param pageBudget the pages fetched per origin, for crawl.max-pages-per-host
   * @param skips hears of every URL left out, with why
   * @param visits where what each visit learned is kept, for the next recrawl
   * @param control whether the crawl goes on; where a fatal failure is reported
   * @param clock the wall clock: record dates, robots.txt retry times
   */
  public record Shared(HostScheduler<CrawlTask> scheduler, PageFetcher fetcher, RobotsPolicy robots,
      ScopePolicy scope, UrlNormalizer normalizer, PerKeyBudget pageBudget, ResultSink sink, SkipLog skips,
      VisitLog visits, CrawlStats stats, OriginStats origins, CrawlControl control, Clock clock) {}

  /** Runs {@code lease} through the steps and ends it, exactly once. */
  public void process(HostScheduler.Lease<CrawlTask> lease) {
    Outcome outcome = null;
    Throwable stepFailure = null;
    stats.leaseStarted();
    try {
      outcome = new Run(lease).at(0).proceed();
    } catch (IOException | FrontierFailure e) {
      control.fail(e); // the results or the crawl directory cannot be written: the page is done again on resume
      outcome = Outcome.abandon();
    } catch (StackOverflowError | RuntimeException e) {
      stepFailure = e;
    } catch (Error e) {
      control.fail(e); // OutOfMemoryError and the like: the crawl cannot go on safely; the page stays unacknowledged
      outcome = Outcome.abandon();
    } finally {
      stats.leaseEnded();
    }
    if (stepFailure != null) {
      closer.settleInternalError(lease, stepFailure);
    } else {
      closer.settle(lease, outcome);
    }
  }

  /** One lease's way through the steps: what was fetched for it, shared by the chain links of every step. */
  private final class Run {
    final HostScheduler.Lease<CrawlTask> lease;
    FetchResponse response;
    Url location;
    CrawlResult record;

    Run(HostScheduler.Lease<CrawlTask> lease) {
      this.lease = lease;
    }

    StepChain at(int index) {
      return new StepChain(this, index);
    }

    void fetched(FetchResponse fetched) {
      response = fetched;
      location = location(normalizer, lease.task(), fetched);
      record = record(lease.task(), fetched, recordLinks);
    }
  }

  /** Where {@code fetched} redirects, resolved against the task's URL; {@code null} for no usable redirect. */
  static Url location(UrlNormalizer normalizer, CrawlTask task, FetchResponse fetched) {
    return fetched.isRedirect() && fetched.location() != null
        ? normalizer.resolverFor(task.url()).resolveOrNull(fetched.location()) : null;
  }

  /** The record of {@code fetched} as it came, before any step reads it. */
  static CrawlResult record(CrawlTask task, FetchResponse fetched, boolean recordLinks) {
    return new CrawlResult(task.key(), fetched.status(), fetched.contentType(), null, fetched.bytes(),
        fetched.truncated(), task.depth(), task.referrer(), fetched.startedAt(), fetched.millis(), 0, null,
        fetched.errorKind(), fetched.error(), task.attempt() + 1, null, recordLinks ? List.of() : null,
        capture(task, fetched));
  }

  /**
   * The response's validators and digest; on a revisit, whether it is unchanged since the last visit: a 304 to the
   * conditional request, or the same payload digest. With an archive, a response whose payload it holds already
   * (another URL's, or this one's last capture) is a revisit of that capture, as the archive stored it.
   */
  static CrawlResult.Capture capture(CrawlTask task, FetchResponse fetched) {
    Revalidation last = task.last() == null ? null : task.last().revalidation();
    StoredAs stored = fetched.storedAs();
    if (last != null && fetched.errorKind() == null && Integer.valueOf(304).equals(fetched.status())) {
      return new CrawlResult.Capture(fetched.etag() != null ? fetched.etag() : last.etag(),
          fetched.lastModified() != null ? fetched.lastModified() : last.lastModified(), last.payloadDigest(),
          CrawlResult.Capture.SERVER_NOT_MODIFIED, last.capturedAt(), last.capturedUrl());
    }
    if (stored != null) {
      return new CrawlResult.Capture(fetched.etag(), fetched.lastModified(), fetched.payloadDigest(),
          CrawlResult.Capture.IDENTICAL_PAYLOAD_DIGEST, stored.date(),
          stored.uri().equals(task.key()) ? null : stored.uri());
    }
    // Only a success repeats a capture: an error page sent again (a second 404) is a response of its own.
    boolean same = last != null && fetched.payloadDigest() != null && fetched.status() != null
        && fetched.status() / 100 == 2 && fetched.payloadDigest().equals(last.payloadDigest());
    return new CrawlResult.Capture(fetched.etag(), fetched.lastModified(), fetched.payloadDigest(),
        same ? CrawlResult.Capture.IDENTICAL_PAYLOAD_DIGEST : null, same ? last.capturedAt() : null,
        same ? last.capturedUrl() : null);
  }

  /** The chain as the step at {@code index} sees it. */
  private final class StepChain implements LeaseStep.Chain {
    private final Run run;
    private final int index;

    StepChain(Run run, int index) {
      this.run = run;
      this.index = index;
    }

    @Override
    public HostScheduler.Lease<CrawlTask> lease() {
      return run.lease;
    }

    @Override
    public FetchResponse response() {
      return run.response;
    }

    @Override
    public Url location() {
      return run.location;
    }

    @Override
    public CrawlResult record() {
      if (run.record == null) {
        throw new IllegalStateException("no response fetched yet for " + run.lease.task().url());
      }
      return run.record;
    }

    @Override
    public void settleNow(Outcome.Interim interim) {
      closer.settleNow(run.lease, interim);
    }

    @Override
    public Outcome proceed() throws IOException {
      if (index < steps.size()) {
        return steps.get(index).handle(run.at(index + 1));
      }
      return Outcome.complete(record());
    }

    @Override
    public Outcome proceed(FetchResponse response) throws IOException {
      run.fetched(response);
      return proceed();
    }
  }
}

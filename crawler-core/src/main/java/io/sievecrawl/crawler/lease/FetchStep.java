package io.sievecrawl.crawler.lease;

import io.sievecrawl.crawler.CrawlControl;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.fetch.PageFetcher;
import io.sievecrawl.crawler.fetch.Revalidation;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.url.Url;
import java.io.IOException;
import java.util.function.Predicate;

/**
 * The request: sent unless the crawl is stopping or the lease is no longer this agent's, checked again as the
 * request goes on the wire ({@link LeaseGate}), where its origin's delay is counted from. The origin's pace learns
 * from the response at once; the steps after this one decide what becomes of it. A requisite is asked for as a
 * browser asks for one; one outside the crawl's scope without the user's extra headers and cookies, and its HTML is
 * not read.
 */
final class FetchStep implements LeaseStep {
  private final PageFetcher fetcher;
  private final CrawlControl control;
  private final HostScheduler<CrawlTask> scheduler;
  private final Predicate<Url> inScope;
  private final OriginWarnings tlsFailures = new OriginWarnings();

  /**
   * @param scheduler whether a lease is still this agent's (a shared crawl may move an origin to another agent), and
   *     when its request may go
   * @param inScope whether a URL's site is in the crawl's scope (crawl.scope)
   */
  FetchStep(PageFetcher fetcher, CrawlControl control, HostScheduler<CrawlTask> scheduler, Predicate<Url> inScope) {
    this.fetcher = fetcher;
    this.control = control;
    this.scheduler = scheduler;
    this.inScope = inScope;
  }

  @Override
  public Outcome handle(Chain chain) throws IOException {
    if (control.isStopping() || !scheduler.owns(chain.lease())) {
      return Outcome.abandon(); // another agent does it, or a resumed crawl
    }
    CrawlTask task = chain.task();
    LeaseGate gate = new LeaseGate(scheduler, chain.lease());
    // a sitemap's body is kept whatever its type, and so is a gzip file that says it is an XML document
    // a revisit is a conditional GET, with the validators its last visit received
    Revalidation last = task.last() == null ? null : task.last().revalidation();
    boolean ours = task.requisite() && inScope.test(task.url());
    FetchResponse response = task.requisite() ? fetcher.fetchRequisite(task.url(), !ours, ours, last, gate)
        : fetcher.fetch(task.url(), true, task.sitemap() || task.url().path().endsWith(".xml.gz"), last, gate);
    if (gate.lapsed()) {
      return Outcome.abandon(); // the lease ran out before the request went: another agent does it
    }
    if (gate.tooSoonBy().isPositive()) {
      return Outcome.postpone(gate.tooSoonBy()); // a request leased after this one went first
    }
    if (control.failure() != null) {
      return Outcome.abandon(); // e.g. its WARC record could not be written: fetched again on resume, recorded then
    }
    chain.settleNow(Outcome.Interim.responded(response)); // the origin's adaptive delay learns from every response
    if (control.isStopping() && response.errorKind() != null) {
      // most likely cut off by the stop: fetched again on resume rather than recorded as failed
      return Outcome.abandon();
    }
    if (response.errorKind() == ErrorKind.TLS) {
      tlsFailures.warnOnce(chain.origin(), response.error());
    }
    return chain.proceed(response);
  }
}

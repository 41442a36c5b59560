package io.sievecrawl.crawler.lease;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.url.Url;
import java.io.IOException;

/**
 * One step of a lease's way through a worker (robots.txt, budgets, the fetch, retries, a follow-up, reading the
 * body), as an OkHttp interceptor is one step of a call: it decides the lease's {@link Outcome} itself, or passes
 * the lease on with {@link Chain#proceed} and may add to what the steps after it decide.
 *
 * <p>A step changes nothing the crawl shares (scope, frontier, scheduler, sinks) itself: it says in the Outcome what
 * should happen, or in an {@link Outcome.Interim} what cannot wait for the lease's end, and {@link LeaseCloser} does
 * it. A step may count into the crawl's statistics and ask the scheduler whether the lease is still this agent's.
 */
interface LeaseStep {

  Outcome handle(Chain chain) throws IOException;

  /** The lease as it goes through the steps, and the way on to the next one. */
  interface Chain {
    HostScheduler.Lease<CrawlTask> lease();

    default CrawlTask task() {
      return lease().claim().task();
    }

    default String origin() {
      return lease().origin();
    }

    /** The response, once a step has fetched one; {@code null} before. */
    FetchResponse response();

    /**
     * Where the response's redirect leads, resolved against the task's URL (once for all steps); {@code null} when
     * it is no redirect or its Location is unusable.
     */
    Url location();

    /** The record of the response as it came, for a step to add what it read from it. */
    CrawlResult record();

    /**
     * Has {@code interim} carried out now, before the steps after this one run: what the origin's pace learns is
     * then in force for the origin's next request, and is kept whatever becomes of the lease.
     */
    void settleNow(Outcome.Interim interim);

    /** What the steps after this one decide. */
    Outcome proceed() throws IOException;

    /** What the steps after this one decide about {@code response}. */
    Outcome proceed(FetchResponse response) throws IOException;
  }
}

package io.sievecrawl.crawler;

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
 * <p>A step changes nothing the crawl shares (scope, frontier, scheduler, sinks): it says in the Outcome what should
 * happen, and {@link LeaseCloser} does it. It may count into the crawl's statistics and read the scheduler.
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

    /** What the steps after this one decide. */
    Outcome proceed() throws IOException;

    /** What the steps after this one decide about {@code response}. */
    Outcome proceed(FetchResponse response) throws IOException;
  }
}

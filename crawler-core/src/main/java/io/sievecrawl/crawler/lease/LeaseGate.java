package io.sievecrawl.crawler.lease;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.SendGate;
import io.sievecrawl.crawler.schedule.HostScheduler;
import java.time.Duration;

/**
 * The gate of one lease's request: it goes only while the lease is still this agent's (a shared crawl's origin is
 * used only while this agent's lease on it holds by its own clock), and no sooner than the origin's delay after its
 * last request sent. A second attempt on the wire (a pooled connection that had dropped) checks the lease only: the
 * first counted the start. Asked by the worker's thread only.
 */
final class LeaseGate implements SendGate {
  private final HostScheduler<CrawlTask> scheduler;
  private final HostScheduler.Lease<CrawlTask> lease;
  private boolean counted;
  private boolean lapsed;
  private long wait;

  LeaseGate(HostScheduler<CrawlTask> scheduler, HostScheduler.Lease<CrawlTask> lease) {
    this.scheduler = scheduler;
    this.lease = lease;
  }

  @Override
  public void beforeSend() throws NotSent {
    if (!scheduler.owns(lease)) {
      lapsed = true;
      throw new NotSent("no longer this agent's to fetch: " + lease.origin());
    }
    if (!counted) {
      wait = scheduler.sending(lease);
      if (wait > 0) {
        throw new NotSent("too soon after the last request to " + lease.origin());
      }
      counted = true;
    }
  }

  /** Whether the request was refused because the lease is no longer this agent's. */
  boolean lapsed() {
    return lapsed;
  }

  /** How long the origin must wait before this request may go, when it was refused for coming too soon; else zero. */
  Duration tooSoonBy() {
    return counted || lapsed ? Duration.ZERO : Duration.ofNanos(wait);
  }
}

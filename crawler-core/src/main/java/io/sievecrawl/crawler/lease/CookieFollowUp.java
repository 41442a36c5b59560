package io.sievecrawl.crawler.lease;

import io.sievecrawl.config.FetchSettings;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.fetch.PageFetcher;
import io.sievecrawl.crawler.url.Url;
import java.io.IOException;
import java.time.Duration;

/**
 * Cookie checks, with fetch.cookies on, within fetch.max-redirects: a page that sets a cookie and redirects to
 * itself is fetched again with the cookie, as a browser would; a page that sends the crawler back to the URL that
 * redirected to it, now holding cookies for it, has that URL fetched again in its place. Either way one URL gets one
 * record, of its last fetch.
 */
final class CookieFollowUp implements LeaseStep {
  private final PageFetcher fetcher;
  private final int maxRedirects;

  CookieFollowUp(PageFetcher fetcher, FetchSettings fetch) {
    this.fetcher = fetcher;
    this.maxRedirects = fetch.maxRedirects();
  }

  @Override
  public Outcome handle(Chain chain) throws IOException {
    CrawlTask task = chain.task();
    FetchResponse response = chain.response();
    Url target = chain.location();
    if (target == null || response.errorKind() != null || task.redirectHops() >= maxRedirects) {
      return chain.proceed();
    }
    if (response.setsCookie() && target.toString().equals(task.key())) {
      return Outcome.handBack(task.againWithCookie(), Duration.ZERO);
    }
    if (sendsBackWithCookies(task, target)) {
      return Outcome.handBack(task.backTo(target), Duration.ZERO);
    }
    return chain.proceed();
  }

  /**
   * Whether this page sends the crawler back to the URL that redirected here, holding cookies for it now: a consent
   * or cookie-check page between a page and its visitors. That URL has passed the sieve already, so the task takes
   * this one's place in its origin's queue (the same origin only, so politeness holds), and the check page gets no
   * record of its own. A second fetch is not sent back again, so a redirect loop goes round once more at most and
   * ends at a seen URL.
   */
  private boolean sendsBackWithCookies(CrawlTask task, Url target) {
    return task.redirectHops() > 0 && task.attempt() == 0 && target.toString().equals(task.referrer())
        && target.origin().equals(task.origin()) && fetcher.hasCookiesFor(target.toString());
  }
}

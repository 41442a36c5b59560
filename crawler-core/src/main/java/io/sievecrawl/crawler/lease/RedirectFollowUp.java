package io.sievecrawl.crawler.lease;

import io.sievecrawl.config.FetchSettings;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.IOException;

/**
 * A redirect: recorded with its target, which is a new URL offered as a link is (scope, then the frontier), within
 * fetch.max-redirects hops; a redirect without a usable Location is recorded as a bad one.
 */
final class RedirectFollowUp implements LeaseStep {
  private final UrlNormalizer keepingSessionIds;
  private final int maxRedirects;

  /** @param normalizer the crawl's, of which one keeping session ids resolves a redirect to the URL itself */
  RedirectFollowUp(UrlNormalizer normalizer, FetchSettings fetch) {
    this.keepingSessionIds = normalizer.keepingSessionIds();
    this.maxRedirects = fetch.maxRedirects();
  }

  @Override
  public Outcome handle(Chain chain) throws IOException {
    FetchResponse response = chain.response();
    if (response.errorKind() != null || !response.isRedirect()) {
      return chain.proceed();
    }
    CrawlResult record = chain.record();
    if (response.location() == null) {
      return Outcome.complete(record.withError(ErrorKind.BAD_REDIRECT, "redirect without a Location header"));
    }
    CrawlTask task = chain.task();
    Url target = target(task, response.location(), chain.location());
    if (target == null) {
      return Outcome.complete(record.withError(ErrorKind.BAD_REDIRECT,
          "unusable Location '" + response.location() + "'"));
    }
    record = record.withRedirectTo(target.toString());
    if (task.redirectHops() >= maxRedirects) {
      return Outcome.complete(record.withError(ErrorKind.TOO_MANY_REDIRECTS, "more than " + maxRedirects
          + " redirects"));
    }
    return new Outcome.Redirect(record, task.redirect(target));
  }

  /**
   * Where a redirect leads. One that leads back to this URL once its session id is removed (a site that puts the
   * session in the URL of a visitor without cookies: {@code /app/} to {@code /app/;jsessionid=...}) leads to the URL
   * as sent, as wget follows it: stripped, it would end at a seen URL and the page behind it would never be fetched.
   * That URL is fetched once; the links of its page lose their session ids as any others do.
   */
  private Url target(CrawlTask task, String location, Url resolved) {
    if (resolved == null || !resolved.toString().equals(task.key())) {
      return resolved;
    }
    Url asSent = keepingSessionIds.resolverFor(task.url()).resolveOrNull(location);
    return asSent != null && !asSent.toString().equals(task.key()) ? asSent : resolved;
  }
}

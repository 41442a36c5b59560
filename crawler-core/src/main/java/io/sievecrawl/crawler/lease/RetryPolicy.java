package io.sievecrawl.crawler.lease;

import io.sievecrawl.config.FetchSettings;
import io.sievecrawl.crawler.CrawlControl;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.report.OriginStats;
import io.sievecrawl.crawler.result.ErrorKind;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Retries after a 5xx, a 429 or a network error, up to fetch.max-retries: the task is handed back to wait for the
 * server's Retry-After or the backoff. Past the last retry the response is recorded as retries exhausted, and a
 * Retry-After that was not waited for still rests the origin.
 */
final class RetryPolicy implements LeaseStep {
  private final int maxRetries;
  private final Duration backoff;
  private final Duration maxRetryAfter;
  private final CrawlControl control;
  private final CrawlStats stats;
  private final OriginStats origins;

  RetryPolicy(FetchSettings fetch, CrawlControl control, CrawlStats stats, OriginStats origins) {
    this.maxRetries = fetch.maxRetries();
    this.backoff = fetch.retryBackoff();
    this.maxRetryAfter = fetch.maxRetryAfter();
    this.control = control;
    this.stats = stats;
    this.origins = origins;
  }

  @Override
  public Outcome handle(Chain chain) throws IOException {
    FetchResponse response = chain.response();
    if (!response.isRetryable()) {
      return chain.proceed();
    }
    CrawlTask task = chain.task();
    if (!control.isStopping()) {
      Duration wait = retryWait(task.attempt(), response.retryAfter());
      if (task.attempt() < maxRetries && wait != null) {
        stats.retried();
        origins.paused(chain.origin(), wait);
        return Outcome.handBack(task.retry(), wait);
      }
      if (response.retryAfter() != null) { // giving this URL up, but the origin still asked for a rest
        Duration pause = response.retryAfter().compareTo(maxRetryAfter) > 0 ? maxRetryAfter : response.retryAfter();
        origins.paused(chain.origin(), pause);
        chain.settleNow(Outcome.Interim.originPause(pause));
      }
    }
    return chain.proceed(response.errorKind() != null ? response : response.withError(
        ErrorKind.RETRIES_EXHAUSTED, "HTTP " + response.status() + " after " + (task.attempt() + 1) + " attempts"));
  }

  /**
   * How long to wait before retry number {@code attempt + 1}: the server's Retry-After if it gave one ({@code null},
   * meaning give up, if that is longer than fetch.max-retry-after), otherwise the backoff doubled per attempt with up
   * to 50% jitter.
   */
  private Duration retryWait(int attempt, Duration retryAfter) {
    if (retryAfter != null) {
      return retryAfter.compareTo(maxRetryAfter) > 0 ? null : retryAfter;
    }
    long base = backoff.toMillis() << Math.min(attempt, 20);
    return Duration.ofMillis(base + ThreadLocalRandom.current().nextLong(base / 2 + 1));
  }
}

package io.sievecrawl.crawler;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.fetch.PageFetcher;
import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.html.PageLinks;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.crawler.robots.RobotsPolicy;
import io.sievecrawl.crawler.robots.RobotsVerdict;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a worker does with one task: limits, robots.txt, the fetch, retries, the redirect or the links, the result.
 * Every path ends the lease exactly once: {@link HostScheduler#complete} or {@link HostScheduler#retryLater}.
 */
final class PageProcessor {
  private static final Logger log = LoggerFactory.getLogger(PageProcessor.class);

  private final CrawlSettings settings;
  private final PageFetcher fetcher;
  private final HostScheduler<CrawlTask> scheduler;
  private final RobotsPolicy robots; // null when robots.txt is not obeyed
  private final LinkExtractor links;
  private final UrlNormalizer normalizer;
  private final ResultSink sink;
  private final CrawlStats stats;
  private final Crawler crawler;
  private final AtomicLong pagesStarted = new AtomicLong();
  private final Map<String, AtomicLong> fetchesPerHost = new ConcurrentHashMap<>();
  private volatile ScopePolicy scope;

  PageProcessor(CrawlSettings settings, PageFetcher fetcher, HostScheduler<CrawlTask> scheduler, RobotsPolicy robots,
      LinkExtractor links, UrlNormalizer normalizer, ResultSink sink, CrawlStats stats, Crawler crawler) {
    this.settings = settings;
    this.fetcher = fetcher;
    this.scheduler = scheduler;
    this.robots = robots;
    this.links = links;
    this.normalizer = normalizer;
    this.sink = sink;
    this.stats = stats;
    this.crawler = crawler;
  }

  void setScope(ScopePolicy scope) {
    this.scope = scope;
  }

  void process(HostScheduler.Lease<CrawlTask> lease) {
    CrawlTask task = lease.task();
    boolean leaseEnded = false;
    stats.inFlight.increment();
    try {
      leaseEnded = fetchAndRecord(lease, task);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      crawler.sinkFailed(e);
    } catch (RuntimeException e) {
      // One bad page must not kill the worker: record it and go on.
      log.warn("internal error on {}", task.url(), e);
      record(new CrawlResult(task.url(), null, null, 0, task.depth(), task.referrer(), Instant.now(), 0, 0, null,
          ErrorKind.INTERNAL, e.toString(), task.attempt() + 1));
    } finally {
      stats.inFlight.decrement();
      if (!leaseEnded) {
        scheduler.complete(lease);
      }
    }
  }

  /** Returns whether the lease was already ended (handed back for a retry). */
  private boolean fetchAndRecord(HostScheduler.Lease<CrawlTask> lease, CrawlTask task)
      throws InterruptedException, IOException {
    if (task.attempt() == 0) {
      if (robots != null) {
        RobotsVerdict verdict = robots.check(task.url());
        switch (verdict.decision()) {
          case DISALLOWED -> {
            stats.skip("robots");
            return false;
          }
          case RETRY_LATER -> {
            Duration wait = Duration.between(Instant.now(), verdict.retryAt());
            scheduler.retryLater(lease, task, wait.isNegative() ? Duration.ZERO : wait);
            return true;
          }
          case UNAVAILABLE -> {
            stats.skip("robots-unavailable");
            return false;
          }
          case ALLOWED -> {
            if (!verdict.crawlDelay().isZero()) {
              scheduler.setHostDelay(lease.host(), verdict.crawlDelay());
            }
          }
        }
      }
      long budget = settings.maxPagesPerHost();
      if (budget > 0 && fetchesPerHost.computeIfAbsent(lease.host(), h -> new AtomicLong()).incrementAndGet() > budget) {
        stats.skip("host-budget");
        return false;
      }
      long maxPages = settings.maxPages();
      if (maxPages > 0 && pagesStarted.incrementAndGet() > maxPages) {
        crawler.pageLimitReached();
        stats.skip("page-limit");
        return false;
      }
    }

    FetchResponse response = fetcher.fetch(task.url(), true);
    if (response.isRetryable() && !crawler.stopping()) {
      Duration wait = retryWait(task.attempt(), response.retryAfter());
      if (task.attempt() < settings.maxRetries() && wait != null) {
        stats.retries.increment();
        scheduler.retryLater(lease, task.retry(), wait);
        return true;
      }
      if (response.retryAfter() != null) { // giving this URL up, but the host still asked for a rest
        Duration cap = settings.maxRetryAfter();
        scheduler.pause(lease.host(), response.retryAfter().compareTo(cap) > 0 ? cap : response.retryAfter());
      }
    }
    record(resultOf(task, response));
    return false;
  }

  private CrawlResult resultOf(CrawlTask task, FetchResponse response) {
    ErrorKind errorKind = response.errorKind();
    String error = response.error();
    if (errorKind == null && response.isRetryable()) {
      errorKind = ErrorKind.RETRIES_EXHAUSTED;
      error = "HTTP " + response.status() + " after " + (task.attempt() + 1) + " attempts";
    }
    String redirectTo = null;
    int outlinks = 0;
    if (errorKind == null && response.isRedirect()) {
      if (response.location() == null) {
        errorKind = ErrorKind.BAD_REDIRECT;
        error = "redirect without a Location header";
      } else {
        redirectTo = normalizer.resolveOrNull(task.url(), response.location());
        if (redirectTo == null) {
          errorKind = ErrorKind.BAD_REDIRECT;
          error = "unusable Location '" + response.location() + "'";
        } else if (task.redirectHops() >= settings.maxRedirects()) {
          errorKind = ErrorKind.TOO_MANY_REDIRECTS;
          error = "more than " + settings.maxRedirects() + " redirects";
        } else {
          if (task.depth() == 0) {
            scope.addSeedRedirect(task.url(), redirectTo);
          }
          follow(task.redirect(redirectTo), true);
        }
      }
    } else if (errorKind == null && response.isHtml() && response.status() / 100 == 2) {
      PageLinks page = links.extract(response.body(), response.charset(), task.url(), response.robotsTag());
      outlinks = page.found();
      for (String link : page.links()) {
        follow(task.link(link), false);
      }
    }
    return new CrawlResult(task.url(), response.status(), response.contentType(), response.bytes(), task.depth(),
        task.referrer(), response.startedAt(), response.millis(), outlinks, redirectTo, errorKind, error,
        task.attempt() + 1);
  }

  /** Pushes a link or redirect target through scope and the sieve. */
  private void follow(CrawlTask next, boolean redirect) {
    ScopePolicy.Reason reason = scope.rejection(next.url(), next.depth());
    if (reason != null) {
      stats.notAdmitted("out-of-scope-" + reason.name().toLowerCase(Locale.ROOT));
      return;
    }
    if (!scheduler.offer(next) && redirect) {
      stats.notAdmitted("redirect-to-seen-url");
    }
  }

  /**
   * How long to wait before retry number {@code attempt + 1}: the server's Retry-After if it gave one (null, meaning
   * give up, if that is longer than fetch.max-retry-after), otherwise the backoff doubled per attempt with up to
   * 50% jitter.
   */
  private Duration retryWait(int attempt, Duration retryAfter) {
    if (retryAfter != null) {
      return retryAfter.compareTo(settings.maxRetryAfter()) > 0 ? null : retryAfter;
    }
    long base = settings.retryBackoff().toMillis() << Math.min(attempt, 20);
    return Duration.ofMillis(base + ThreadLocalRandom.current().nextLong(base / 2 + 1));
  }

  private void record(CrawlResult result) {
    stats.record(result);
    try {
      sink.accept(result);
    } catch (IOException e) {
      crawler.sinkFailed(e);
    }
  }
}

package io.sievecrawl.crawler.lease;

import io.sievecrawl.config.RobotsSettings;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.report.OriginStats;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.robots.RobotsPolicy;
import io.sievecrawl.crawler.robots.RobotsVerdict;
import io.sievecrawl.crawler.url.ReferenceResolver;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * robots.txt, before a URL's first fetch: a disallowed URL is recorded and skipped; while the origin's robots.txt is
 * on its way the origin waits for it; the sitemaps it lists are offered (robots.follow-sitemaps) and its
 * Crawl-delay kept.
 */
final class RobotsGate implements LeaseStep {
  /** How long an origin waits for its robots.txt at most; it is woken as soon as robots.txt is known. */
  private static final Duration UNTIL_ROBOTS_ARRIVES = Duration.ofHours(1);

  private final RobotsPolicy robots;
  private final boolean followSitemaps;
  private final UrlNormalizer normalizer;
  private final OriginStats origins;
  private final CrawlStats stats;
  private final Clock clock;
  private final Consumer<String> wakeOrigin;

  /** @param wakeOrigin called with an origin once its robots.txt has come, to end its wait */
  RobotsGate(RobotsPolicy robots, RobotsSettings settings, UrlNormalizer normalizer, OriginStats origins,
      CrawlStats stats, Clock clock, Consumer<String> wakeOrigin) {
    this.robots = robots;
    this.followSitemaps = settings.followSitemaps();
    this.normalizer = normalizer;
    this.origins = origins;
    this.stats = stats;
    this.clock = clock;
    this.wakeOrigin = wakeOrigin;
  }

  @Override
  public Outcome handle(Chain chain) throws IOException {
    CrawlTask task = chain.task();
    if (task.attempt() > 0) {
      return chain.proceed(); // passed the gate on its first attempt
    }
    String origin = chain.origin();
    RobotsVerdict verdict = robots.verdict(task.url(), () -> wakeOrigin.accept(origin));
    List<CrawlTask> sitemaps = followSitemaps ? sitemaps(origin, verdict.sitemaps()) : List.of();
    boolean allowed = verdict.decision() == RobotsVerdict.Decision.ALLOWED;
    Duration crawlDelay = allowed && !verdict.crawlDelay().isZero() ? verdict.crawlDelay() : null;
    if (!sitemaps.isEmpty() || crawlDelay != null) { // robots.txt tells of its sitemaps once; the delay holds at once
      chain.settleNow(Outcome.Interim.robots(crawlDelay, sitemaps));
    }
    return switch (verdict.decision()) {
      case DISALLOWED -> {
        origins.disallowed(origin);
        yield skipped(task, ErrorKind.ROBOTS_DISALLOWED, "disallowed by robots.txt", SkipReason.ROBOTS);
      }
      // robots.txt is being fetched in the background: the origin waits for it, this worker moves on
      case PENDING -> Outcome.postpone(UNTIL_ROBOTS_ARRIVES, () -> robots.isSettled(task.url()));
      case RETRY_LATER -> {
        Duration wait = Duration.between(clock.instant(), verdict.retryAt());
        wait = wait.isNegative() ? Duration.ZERO : wait;
        origins.paused(origin, wait);
        yield Outcome.postpone(wait);
      }
      case UNAVAILABLE -> unavailable(task, origin, verdict);
      case ALLOWED -> {
        origins.robots(origin, "allowed");
        yield chain.proceed();
      }
    };
  }

  private Outcome unavailable(CrawlTask task, String origin, RobotsVerdict verdict) {
    if (verdict.unreachable()) {
      origins.robots(origin, "unreachable: " + verdict.reason());
      return skipped(task, ErrorKind.ORIGIN_UNREACHABLE, "origin unreachable: " + verdict.reason()
          + " (no request sent for this URL)", SkipReason.ORIGIN_UNREACHABLE);
    }
    origins.robots(origin, "unavailable: " + verdict.reason());
    return skipped(task, ErrorKind.ROBOTS_UNAVAILABLE, "origin given up: " + verdict.reason(),
        SkipReason.ROBOTS_UNAVAILABLE);
  }

  /** A URL given up without a fetch, recorded with why. */
  private Outcome skipped(CrawlTask task, ErrorKind kind, String why, SkipReason reason) {
    return Outcome.givenUp(new CrawlResult(task.key(), null, null, null, 0, false, task.depth(), task.referrer(),
        clock.instant(), 0, 0, null, kind, why, 0), reason);
  }

  /** The sitemaps {@code origin}'s robots.txt lists, as tasks. */
  private List<CrawlTask> sitemaps(String origin, List<String> listed) {
    if (listed.isEmpty()) {
      return List.of();
    }
    String robotsTxt = origin + "/robots.txt";
    ReferenceResolver resolver = normalizer.resolverFor(robotsTxt);
    List<CrawlTask> tasks = new ArrayList<>(listed.size());
    for (String sitemap : listed) {
      Url url = resolver.resolveOrNull(sitemap);
      if (url == null) {
        stats.notAdmitted(SkipReason.INVALID_URL);
      } else {
        tasks.add(CrawlTask.listedSitemap(url, robotsTxt));
      }
    }
    return tasks;
  }
}

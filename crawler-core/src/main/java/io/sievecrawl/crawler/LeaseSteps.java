package io.sievecrawl.crawler;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.fetch.PageFetcher;
import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.report.OriginStats;
import io.sievecrawl.crawler.robots.RobotsPolicy;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.url.UrlNormalizer;
import io.sievecrawl.sieve.PerKeyBudget;
import io.sievecrawl.crawler.url.Url;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Where a crawl's {@link LeaseStep}s are put in order: a new step is one line here. */
final class LeaseSteps {
  private LeaseSteps() {}

  /**
   * The steps of a crawl with these settings: the gates before a URL's first fetch, the fetch, then what the
   * response asks for (nothing more when a revisit is not modified), a retry or a follow-up before its body is read.
   *
   * @param robots {@code null} when robots.txt is not obeyed
   * @param scheduler whether a lease is still this agent's, and when its request may go
   * @param closer where robots.txt's arrival wakes the origin that waited for it
   * @param inScope whether a URL's site is in crawl.scope: a requisite outside it is asked for without the user's
   *     headers and cookies, and not read as a page
   */
  static List<LeaseStep> of(CrawlSettings settings, RobotsPolicy robots, PageFetcher fetcher,
      HostScheduler<CrawlTask> scheduler, LeaseCloser closer, LinkExtractor links, UrlNormalizer normalizer,
      PerKeyBudget pagesPerOrigin, CrawlControl control, CrawlStats stats, OriginStats origins, Clock clock,
      Predicate<Url> inScope) {
    List<LeaseStep> steps = new ArrayList<>();
    steps.add(new FreshGate());
    if (robots != null) {
      steps.add(new RobotsGate(robots, settings.robots(), normalizer, origins, stats, clock, closer::wake));
    }
    steps.add(new BudgetGate(pagesPerOrigin, settings.crawl(), control));
    steps.add(new FetchStep(fetcher, control, scheduler, inScope));
    steps.add(new NotModifiedStep());
    steps.add(new RetryPolicy(settings.fetch(), control, stats, origins));
    if (settings.fetch().cookies()) {
      steps.add(new CookieFollowUp(fetcher, settings.fetch()));
    }
    steps.add(new RedirectFollowUp(normalizer, settings.fetch()));
    steps.add(new ListingReader(normalizer, settings.robots(), stats));
    if (settings.requisites().fetch()) {
      steps.add(new StyleSheetReader(normalizer, settings.crawl().maxLinksPerPage(), stats));
    }
    steps.add(new PageReader(links, settings.results(), settings.requisites().fetch(), stats));
    return steps;
  }
}

package io.sievecrawl.crawler.lease;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.util.ArrayList;
import java.util.List;

/** Where a crawl's {@link LeaseStep}s are put in order: a new step is one line here. */
final class LeaseSteps {
  private LeaseSteps() {}

  /**
   * The steps of a crawl with these settings: the gates before a URL's first fetch, the fetch, then what the
   * response asks for (nothing more when a revisit is not modified), a retry or a follow-up before its body is read.
   *
   * @param closer where robots.txt's arrival wakes the origin that waited for it
   */
  static List<LeaseStep> of(CrawlSettings settings, LeasePipeline.Shared crawl, LeaseCloser closer,
      LinkExtractor links) {
    UrlNormalizer normalizer = crawl.normalizer();
    CrawlStats stats = crawl.stats();
    List<LeaseStep> steps = new ArrayList<>();
    steps.add(new FreshGate());
    if (crawl.robots() != null) {
      steps.add(new RobotsGate(crawl.robots(), settings.robots(), normalizer, crawl.origins(), stats, crawl.clock(),
          closer::wake));
    }
    steps.add(new BudgetGate(crawl.pageBudget(), settings.crawl(), crawl.control()));
    // a requisite whose site is outside crawl.scope is asked for without the user's headers and cookies, not read
    steps.add(new FetchStep(crawl.fetcher(), crawl.control(), crawl.scheduler(), crawl.scope()::coversSiteOf));
    steps.add(new NotModifiedStep());
    steps.add(new RetryPolicy(settings.fetch(), crawl.control(), stats, crawl.origins()));
    if (settings.fetch().cookies()) {
      steps.add(new CookieFollowUp(crawl.fetcher(), settings.fetch()));
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

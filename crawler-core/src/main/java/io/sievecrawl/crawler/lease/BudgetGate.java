package io.sievecrawl.crawler.lease;

import io.sievecrawl.config.CrawlLimits;
import io.sievecrawl.crawler.CrawlControl;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.sieve.PerKeyBudget;
import java.io.IOException;

/**
 * The budgets, before a URL's first fetch: crawl.max-pages-per-host skips a URL past its origin's budget (a
 * requisite counts, as a guard against a site that makes them up endlessly); crawl.max-pages, which counts pages, not
 * requisites, leaves a page in the frontier, for a resumed crawl with a higher limit.
 */
final class BudgetGate implements LeaseStep {
  private final PerKeyBudget pagesPerOrigin;
  private final long maxPagesPerOrigin;
  private final CrawlControl control;

  BudgetGate(PerKeyBudget pagesPerOrigin, CrawlLimits limits, CrawlControl control) {
    this.pagesPerOrigin = pagesPerOrigin;
    this.maxPagesPerOrigin = limits.maxPagesPerHost(); // 0 for no limit
    this.control = control;
  }

  @Override
  public Outcome handle(Chain chain) throws IOException {
    if (chain.task().attempt() > 0) {
      return chain.proceed(); // passed the gate on its first attempt
    }
    if (maxPagesPerOrigin > 0 && !pagesPerOrigin.tryCount(chain.origin(), maxPagesPerOrigin)) {
      return Outcome.skipped(SkipReason.HOST_BUDGET);
    }
    if (!chain.task().requisite() && !control.tryStartPage()) {
      return Outcome.abandon();
    }
    return chain.proceed();
  }
}

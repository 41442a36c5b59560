package io.sievecrawl.crawler.home;

import io.sievecrawl.config.CrawlSettings;
import java.util.Set;

/** The {@link CrawlHomeContract} for a crawl on the heap: reopened, it is the same object, as in one process. */
class MemoryHomeTest extends CrawlHomeContract {
  @Override
  CrawlHome create(CrawlSettings settings) {
    return MemoryHome.of(settings);
  }

  @Override
  CrawlHome reopen(CrawlHome closed) {
    return closed;
  }

  @Override
  boolean keepsTotals() {
    return true;
  }

  @Override
  boolean sharesScope() {
    return false;
  }

  @Override
  boolean resizable() {
    return false;
  }

  @Override
  Set<String> visitsKept(CrawlHome home) {
    return Set.of();
  }

  @Override
  boolean keepsVisits() {
    return false;
  }
}

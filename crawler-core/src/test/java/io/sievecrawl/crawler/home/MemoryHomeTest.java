package io.sievecrawl.crawler.home;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.scope.ScopeSites;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

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

  @Test
  void aHomeSharingItsScopeHandsTheCrawlWhereItIsShared() {
    ScopeSites sites = new ScopeSites() {
      @Override
      public Collection<String> load() {
        return List.of("a.example");
      }

      @Override
      public void publish(String site) {}
    };
    assertSame(sites, MemoryHome.of(SETTINGS).sharingScopeWith(sites).scopeSites());
  }
}

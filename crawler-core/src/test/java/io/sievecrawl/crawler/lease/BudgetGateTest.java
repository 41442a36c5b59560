package io.sievecrawl.crawler.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.CrawlControl;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.sieve.PerKeyBudget;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BudgetGateTest {
  private final Map<String, Long> counted = new HashMap<>();
  private final PerKeyBudget budget = (key, limit) -> {
    long now = counted.getOrDefault(key.toString(), 0L);
    if (now >= limit) {
      return false;
    }
    counted.put(key.toString(), now + 1);
    return true;
  };
  private boolean stopped;
  private final CrawlControl control = new CrawlControl(0, 0, () -> 1L, () -> stopped = true);

  private BudgetGate gate(long maxPagesPerHost) {
    return new BudgetGate(budget, CrawlSettings.builder().set(Setting.MAX_PAGES_PER_HOST, maxPagesPerHost).build()
        .crawl(), control);
  }

  @Test
  void aUrlPastItsOriginsBudgetIsSkippedAndARetryIsNotCountedAgain() throws Exception {
    BudgetGate gate = gate(2);
    CrawlTask a = FakeChain.page("http://example.test/a");
    assertSame(FakeChain.PASSED, gate.handle(FakeChain.of(a)));
    assertSame(FakeChain.PASSED, gate.handle(FakeChain.of(a.retry())), "a retry passed the gate already");
    assertSame(FakeChain.PASSED, gate.handle(FakeChain.of(FakeChain.page("http://example.test/b"))));
    assertEquals(new Outcome.Skipped(SkipReason.HOST_BUDGET),
        gate.handle(FakeChain.of(FakeChain.page("http://example.test/c"))));
    assertSame(FakeChain.PASSED, gate.handle(FakeChain.of(FakeChain.page("http://other.test/"))), "per origin");
    assertEquals(Map.of("http://example.test", 2L, "http://other.test", 1L), counted);
  }

  @Test
  void pastTheCrawlsPageLimitAPageIsLeftInTheFrontierButARequisiteGoes() throws Exception {
    CrawlControl limited = new CrawlControl(1, 0, () -> 1L, () -> stopped = true);
    BudgetGate gate = new BudgetGate(budget, CrawlSettings.defaults().crawl(), limited);
    CrawlTask page = FakeChain.page("http://example.test/");
    assertSame(FakeChain.PASSED, gate.handle(FakeChain.of(page)));
    assertFalse(stopped);
    assertInstanceOf(Outcome.Abandon.class, gate.handle(FakeChain.of(FakeChain.page("http://example.test/2"))));
    assertTrue(stopped, "the page limit stops the crawl");
    assertSame(FakeChain.PASSED, gate.handle(FakeChain.of(page.requisiteOf(FakeChain.url(
        "http://example.test/style.css")))), "requisites do not count against crawl.max-pages");
  }
}

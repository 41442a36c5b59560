package io.sievecrawl.crawler.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** An agent handed a URL of a site it has not heard of reads the shared sites again, once. */
class SharedScopeTest {
  private static final UrlNormalizer NORMALIZER = new UrlNormalizer(2048, true);

  private final Set<String> published = new CopyOnWriteArraySet<>(Set.of("a.test"));
  private final AtomicInteger loads = new AtomicInteger();
  private volatile CountDownLatch loadMayEnd = new CountDownLatch(0);
  private final ScopeSites sites = new ScopeSites() {
    @Override
    public Collection<String> load() {
      loads.incrementAndGet();
      try {
        loadMayEnd.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return List.copyOf(published);
    }

    @Override
    public void publish(String site) {
      published.add(site);
    }
  };
  private final FakeClock clock = new FakeClock();
  private final ScopePolicy scope = new ScopePolicy(CrawlSettings.defaults(), List.of(url("http://a.test/")));
  private final SharedScope shared = new SharedScope(sites, scope, clock);

  private static Url url(String s) {
    return NORMALIZER.parse(s);
  }

  @Test
  void aSiteKnownAlreadyIsNotLookedFor() {
    shared.lookFor(url("http://a.test/page"));
    assertEquals(0, loads.get());
  }

  @Test
  void aSitePublishedAfterThisAgentReadTheSitesIsFoundWhenItsFirstUrlComes() {
    published.add("b.test"); // another agent's seed, published after this agent started
    assertEquals(SkipReason.OUT_OF_SCOPE_HOST, scope.rejection(url("http://b.test/x"), 1));

    shared.lookFor(url("http://b.test/"));
    assertEquals(1, loads.get());
    assertNull(scope.rejection(url("http://b.test/x"), 1), "its links are in scope");

    clock.advance(Duration.ofMillis(1));
    shared.lookFor(url("http://b.test/other"));
    assertEquals(1, loads.get(), "known now: no second read");
  }

  @Test
  void aSiteNobodyPublishedCostsOneReadNotOnePerUrl() {
    shared.lookFor(url("http://c.test/1"));
    clock.advance(Duration.ofMillis(1));
    shared.lookFor(url("http://c.test/2"));
    shared.lookFor(url("http://c.test/3"));
    assertEquals(1, loads.get());
    assertEquals(SkipReason.OUT_OF_SCOPE_HOST, scope.rejection(url("http://c.test/4"), 1));
  }

  @Test
  void workersMissingOneSiteAtOnceShareOneRead() throws InterruptedException {
    loadMayEnd = new CountDownLatch(1);
    published.add("b.test");
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String page = "http://b.test/" + i;
      workers.add(Thread.ofVirtual().start(() -> shared.lookFor(url(page))));
    }
    while (loads.get() == 0) { // the first read has begun: the others wait on it, or find the site read
      Thread.onSpinWait();
    }
    loadMayEnd.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    assertEquals(1, loads.get());
    assertNull(scope.rejection(url("http://b.test/x"), 1));
  }
}

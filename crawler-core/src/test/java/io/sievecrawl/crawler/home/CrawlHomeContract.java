package io.sievecrawl.crawler.home;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.CrawlState;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.report.CrawlTotals;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link CrawlHome} does, run against each kind (as Guava's testlib runs one suite against every queue):
 * a new crawl has its settings' identity; a reopened one keeps its identity, its frontier, what its page budget
 * counted and the state it saved; another n or p is refused unless an exact store can rebuild the filter; visits
 * are kept where a recrawl reads them. A subclass says how its kind is made, reopened, and which of these it keeps.
 */
abstract class CrawlHomeContract {
  static final CrawlSettings SETTINGS = CrawlSettings.builder().set(Setting.FILTER_N, 10_000L)
      .set(Setting.FILTER_P, 0.001).set(Setting.FILTER_CONFIRM, false).build();
  static final RunOptions RUN = new RunOptions(SETTINGS, Setting.FILTER_N.key(), Ticker.SYSTEM);
  private final List<CrawlHome> opened = new ArrayList<>();

  /** A new crawl's home with {@code settings}. */
  abstract CrawlHome create(CrawlSettings settings) throws Exception;

  /** The crawl of {@code closed} (closed, or at least its run ended), opened again as a new process would. */
  abstract CrawlHome reopen(CrawlHome closed) throws Exception;

  /** Whether the kind keeps an agent's totals and sites in scope between runs (a shared crawl's agents do not). */
  abstract boolean keepsTotals();

  /** Whether the kind shares the sites in scope with other agents. */
  abstract boolean sharesScope();

  /** Whether the kind can rebuild its filter at a new n and p from an exact store. */
  abstract boolean resizable();

  /** The URLs whose visits the home kept for a recrawl (empty for a kind that keeps none). */
  abstract Set<String> visitsKept(CrawlHome home) throws IOException;

  /** Whether the kind keeps visits for a recrawl. */
  abstract boolean keepsVisits();

  final CrawlHome opened(CrawlHome home) {
    opened.add(home);
    return home;
  }

  @AfterEach
  void closeHomes() throws IOException {
    for (CrawlHome home : opened) {
      home.close();
    }
  }

  @Test
  void aNewCrawlHasTheIdentityOfItsSettings() throws Exception {
    CrawlHome home = opened(create(SETTINGS));
    assertEquals(new CrawlIdentity(10_000, 0.001, false, 0), home.identity());
  }

  @Test
  void aReopenedCrawlKeepsItsIdentityAndTheTasksItsFrontierHeld() throws Exception {
    CrawlHome home = opened(create(SETTINGS));
    home.runStarts(RUN);
    Frontier<CrawlTask> frontier = home.frontier();
    for (String url : List.of("https://a.example/1", "https://a.example/2", "https://b.example/1")) {
      assertTrue(frontier.offer(task(url)), url);
    }
    String queue = frontier.nextQueue();
    Claim<CrawlTask> done = frontier.poll(queue);
    frontier.complete(done);
    frontier.releaseQueue(queue);
    home.runEnded(CrawlSummary.End.STOPPED, home.savedState());
    CrawlHome again = opened(reopen(home));
    assertEquals(home.identity(), again.identity());
    again.runStarts(RUN);
    assertEquals(2, again.frontier().stats().queued(), "the two tasks not done wait");
    assertFalse(again.frontier().offer(task(done.task().url().toString())), "the one done stays admitted");
    again.runEnded(CrawlSummary.End.STOPPED, again.savedState());
  }

  @Test
  void anotherNOrPIsRefusedInOneLineUnlessAnExactStoreRebuildsTheFilter() throws Exception {
    CrawlHome home = opened(create(SETTINGS));
    CrawlSettings larger = SETTINGS.toBuilder().set(Setting.FILTER_N, 20_000L).build();
    Optional<String> why = home.identity().mismatch(larger, CrawlIdentity.RESUMES, "the crawl", resizable());
    assertEquals(Optional.of("filter.n cannot change when a crawl resumes: the crawl was sized for n = 10,000"
        + " (given set: 20,000)"), why.map(line -> line.replaceAll("given [^:]*:", "given set:")));
    CrawlHome confirmed = opened(create(SETTINGS.toBuilder().set(Setting.FILTER_CONFIRM, true).build()));
    assertEquals(!resizable(), confirmed.identity().mismatch(larger.toBuilder().set(Setting.FILTER_CONFIRM, true)
        .build(), CrawlIdentity.RESUMES, "the crawl", resizable()).isPresent());
    assertTrue(home.identity().mismatch(SETTINGS, CrawlIdentity.RESUMES, "the crawl", resizable()).isEmpty(),
        "the same settings");
  }

  @Test
  void whatARunSavedAndCountedIsThereWhenTheCrawlIsReopened() throws Exception {
    CrawlHome home = opened(create(SETTINGS));
    home.runStarts(RUN);
    assertTrue(home.pageBudget().tryCount("https://a.example", 2));
    assertTrue(home.pageBudget().tryCount("https://a.example", 2));
    home.scopeSites().publish("b.example");
    CrawlTotals totals = new CrawlTotals(1, 3, 300, 0, Map.of("2xx", 3L), Map.of(), Map.of(), Map.of(), 3,
        Duration.ofSeconds(2));
    CrawlState state = new CrawlState(totals, Set.of("a.example"), home.savedState().pagesPerOrigin(), List.of());
    home.save(state);
    home.runEnded(CrawlSummary.End.STOPPED, state);

    CrawlHome again = opened(reopen(home));
    again.runStarts(RUN);
    assertFalse(again.pageBudget().tryCount("https://a.example", 2), "two pages of a.example counted already");
    assertTrue(again.pageBudget().tryCount("https://c.example", 2));
    if (keepsTotals()) {
      assertEquals(3, again.savedState().totals().fetched());
      assertEquals(Set.of("a.example"), again.savedState().scopeSites());
    } else {
      assertEquals(0, again.savedState().totals().fetched(), "an agent's totals are its own");
    }
    Collection<String> published = again.scopeSites().load();
    assertEquals(sharesScope() ? List.of("b.example") : List.of(), List.copyOf(published));
    again.runEnded(CrawlSummary.End.STOPPED, again.savedState());
  }

  @Test
  void visitsAreKeptWhereARecrawlReadsThem() throws Exception {
    CrawlHome home = opened(create(SETTINGS));
    home.runStarts(RUN);
    CrawlTask task = task("https://a.example/page");
    home.visits().visited(task, new CrawlResult("https://a.example/page", 200, "text/html", null, 10, false, 0,
        null, Instant.parse("2026-11-20T10:00:00Z"), 5, 0, null, null, null, 1, null, null,
        new CrawlResult.Capture("\"e1\"", null, "sha1:D1", null, null)));
    home.sync();
    home.runEnded(CrawlSummary.End.COMPLETED, home.savedState());
    assertEquals(keepsVisits() ? Set.of("https://a.example/page") : Set.of(), visitsKept(home));
  }

  static CrawlTask task(String url) {
    return new CrawlTask(Url.ofCanonical(url), 0, null, 0, 0);
  }
}

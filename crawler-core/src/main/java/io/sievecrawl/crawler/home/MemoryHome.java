package io.sievecrawl.crawler.home;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.CrawlState;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.scope.ScopeSites;
import io.sievecrawl.sieve.Frontier;
import java.util.Objects;

/**
 * A crawl that lives in this process only: its frontier on the heap (or one handed in, which its owner checkpoints
 * and closes), its state kept in memory from one run to the next. A test's or a library caller's home; nothing
 * survives the process.
 */
public final class MemoryHome implements CrawlHome {
  private final CrawlSettings settings;
  private final Frontier<CrawlTask> given; // null: an in-memory sieve, made at the first run
  private final ScopeSites scopeSites;
  private Frontier<CrawlTask> frontier;
  private CrawlState state;
  private CrawlSummary.End lastEnd;
  private int runs;

  private MemoryHome(CrawlSettings settings, Frontier<CrawlTask> given, ScopeSites scopeSites, CrawlState state) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.given = given;
    this.scopeSites = scopeSites;
    this.state = state;
  }

  /** A new crawl's home with an in-memory sieve sized from the settings' {@code filter.n} and {@code filter.p}. */
  public static MemoryHome of(CrawlSettings settings) {
    return new MemoryHome(settings, null, ScopeSites.NONE, CrawlState.fresh());
  }

  /** A home over {@code frontier}, which its owner checkpoints and closes. */
  public static MemoryHome over(CrawlSettings settings, Frontier<CrawlTask> frontier) {
    return new MemoryHome(settings, Objects.requireNonNull(frontier, "frontier"), ScopeSites.NONE,
        CrawlState.fresh());
  }

  /** This home with the sites in scope shared through {@code sites}. */
  public MemoryHome sharingScopeWith(ScopeSites sites) {
    return new MemoryHome(settings, given, Objects.requireNonNull(sites, "sites"), state);
  }

  /** This home as earlier runs left it: with {@code saved} as their state. */
  public MemoryHome withState(CrawlState saved) {
    return new MemoryHome(settings, given, scopeSites, Objects.requireNonNull(saved, "saved"));
  }

  @Override
  public CrawlIdentity identity() {
    return CrawlIdentity.of(settings);
  }

  @Override
  public String where() {
    return "memory";
  }

  /** Counts the run; the frontier is made by the first run (or the first call of {@link #frontier}). */
  @Override
  public synchronized void runStarts(RunOptions run) {
    if (frontier == null) {
      frontier = given != null ? given : Frontiers.inMemory(settings.filter(), run.capacityHint());
    }
    runs++;
  }

  /** The frontier: the one handed in, or an in-memory sieve made at the first call (its warning naming filter.n). */
  @Override
  public synchronized Frontier<CrawlTask> frontier() {
    if (frontier == null) {
      frontier = given != null ? given : Frontiers.inMemory(settings.filter(), Setting.FILTER_N.key());
    }
    return frontier;
  }

  @Override
  public ScopeSites scopeSites() {
    return scopeSites;
  }

  @Override
  public synchronized CrawlState savedState() {
    return state;
  }

  @Override
  public synchronized void save(CrawlState saved) {
    state = Objects.requireNonNull(saved, "saved");
  }

  @Override
  public synchronized void runEnded(CrawlSummary.End end, CrawlState saved) {
    state = Objects.requireNonNull(saved, "saved");
    lastEnd = end;
  }

  /** How the last run ended, or null while none has. */
  public synchronized CrawlSummary.End lastEnd() {
    return lastEnd;
  }

  /** Runs started so far. */
  public synchronized int runs() {
    return runs;
  }

  @Override
  public void close() {}
}

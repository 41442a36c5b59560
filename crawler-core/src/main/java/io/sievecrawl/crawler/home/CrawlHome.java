package io.sievecrawl.crawler.home;

import io.sievecrawl.crawler.CrawlState;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.VisitLog;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.crawler.robots.RobotsStore;
import io.sievecrawl.crawler.scope.ScopeSites;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.PerKeyBudget;
import java.io.Closeable;
import java.io.IOException;

/**
 * Where a crawl lives between runs and machines: its identity, its frontier, the state earlier runs left, where its
 * page budget and sites in scope are counted, where its visits are kept, and the start and end of each run.
 *
 * <p>A run goes {@link #runStarts} (the frontier opens and the saved state is read), then the crawl reads the
 * accessors, {@link #save}s its state every second and {@link #sync}s on the sync interval, and ends with
 * {@link #runEnded}, which checkpoints and closes the frontier and records how the run ended. {@link #close} lets
 * another process work the crawl. Implementations: {@link MemoryHome} (one process, nothing kept),
 * {@code io.sievecrawl.crawler.job.DirectoryHome} (a crawl directory), {@link SharedHome} (Redis, several agents).
 * {@link Frontiers} is the only place a frontier kind is chosen.
 */
public interface CrawlHome extends Closeable {
  /** What the crawl is: its filter's n and p, whether an exact store confirms it, its generation. */
  CrawlIdentity identity();

  /** Where the crawl lives, for messages: a directory, or the Redis URI and the crawl's name. */
  String where();

  /**
   * Records that a run starts, opens the crawl's frontier and reads what earlier runs left.
   *
   * @param run what the frontier is opened with
   * @throws CrawlHomeException if the crawl's files or keys are damaged or of another version (naming which)
   */
  void runStarts(RunOptions run) throws IOException;

  /** The frontier of the run under way ({@link #runStarts} first). */
  Frontier<CrawlTask> frontier();

  /** What earlier runs left, as read when this run started: totals, sites in scope, per-origin counts, cookies. */
  CrawlState savedState();

  /** Where the per-origin page budget is counted. Default: the saved state's sketch, in this process. */
  default PerKeyBudget pageBudget() {
    return savedState().pagesPerOrigin();
  }

  /** Where the sites in scope are shared with other agents of the crawl. Default: nowhere. */
  default ScopeSites scopeSites() {
    return ScopeSites.NONE;
  }

  /** Where what each visit learned is kept, for a recrawl. Default: nowhere. */
  default VisitLog visits() {
    return VisitLog.NONE;
  }

  /**
   * Where the robots.txt rules fetched are kept beyond this run, looked up before robots.txt is fetched (a resumed
   * crawl, or an agent that takes an origin over, uses them until they expire). Default: nowhere.
   */
  default RobotsStore robots() {
    return RobotsStore.NONE;
  }

  /**
   * The sink a run hands its results to: {@code results} itself, or one that also counts them where the crawl's
   * agents share their totals. Call once per run, after {@link #runStarts}.
   */
  default ResultSink recording(ResultSink results) {
    return results;
  }

  /** Keeps {@code state} so that a run killed now resumes from it; unchanged parts need not be written again. */
  void save(CrawlState state) throws IOException;

  /** Forces what the run wrote besides the frontier (visits) to the device; for power cuts. Default: nothing. */
  default void sync() throws IOException {}

  /**
   * Ends the run: checkpoints and closes the frontier (a failed checkpoint is logged: the next run replays the log),
   * saves {@code state} and records {@code end}.
   */
  void runEnded(CrawlSummary.End end, CrawlState state) throws IOException;

  /** Lets another process work the crawl; the frontier of a run not ended is closed too. */
  @Override
  void close() throws IOException;
}

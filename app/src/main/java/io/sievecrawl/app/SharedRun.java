package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Values;
import io.sievecrawl.crawler.home.CrawlHome;
import io.sievecrawl.crawler.home.SharedCrawls;
import io.sievecrawl.crawler.home.SharedHome;
import io.sievecrawl.crawler.home.SharedHomeException;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.warc.WaczPackage;
import io.sievecrawl.crawler.warc.WarcArchive;
import io.sievecrawl.crawler.warc.WarcWriteException;
import io.sievecrawl.sieve.FrontierFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One agent's run in a crawl shared through Redis, for {@code crawl --redis} and {@code join}: works the shards it
 * leases until nothing is open anywhere, writing its own results file; its unfinished pages go to the other agents.
 */
final class SharedRun implements HomeRun {
  /** Shards of a new shared crawl: origins are spread over them; agents lease them. */
  static final int SHARDS = 64;
  /** How long {@code join} waits for a crawl that another agent has not started yet (agents started together). */
  static final Duration JOIN_WAIT = Duration.ofMinutes(1);
  /** How long an agent that saw the crawl complete waits for the others to end, for their last counts. */
  static final Duration END_WAIT = Duration.ofSeconds(5);
  private static final Logger log = LoggerFactory.getLogger(SharedRun.class);

  private final SharedHome home;

  SharedRun(SharedHome home) {
    this.home = home;
  }

  /** Opens the crawl, or says why not, with the exit code. */
  static SharedHome open(String uri, String name, CrawlSettings settings, boolean join, Clocks clocks) {
    long started = clocks.ticker().nanos();
    while (true) {
      try {
        return join ? SharedCrawls.join(uri, name, clocks.ticker())
            : SharedCrawls.startOrJoin(uri, name, settings, SHARDS, clocks.wall(), clocks.ticker());
      } catch (SharedHomeException e) {
        if (join && e.reason() == SharedHomeException.Reason.NO_SUCH_CRAWL
            && clocks.ticker().nanos() - started < JOIN_WAIT.toNanos()) {
          sleep(500); // the agent that starts the crawl may come up a moment later
          continue;
        }
        throw new UserError(e.reason() == SharedHomeException.Reason.MISMATCH ? ExitCodes.CONFIG : ExitCodes.SHARED,
            CommandName.inHints(e.getMessage()));
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError(ExitCodes.INTERRUPTED, "interrupted while waiting for the shared crawl to start");
    }
  }

  @Override
  public CrawlHome home() {
    return home;
  }

  @Override
  public String warcName() {
    return home.name();
  }

  @Override
  public boolean payloadDigests(boolean archived) {
    return archived; // an agent keeps no visits
  }

  @Override
  public List<Path> warcDirs(WarcArchive warc) {
    return List.of(warc.dir()); // this agent's WARC files
  }

  @Override
  public UserError cannotStart(Exception e) {
    return new UserError(ExitCodes.SHARED, e.getMessage());
  }

  @Override
  public void started() {
    log.info("agent {} works the shared crawl '{}' in {}", home.agentId(), home.name(), home.uri());
  }

  @Override
  public String stopping(String again) {
    home.stopWaiting(); // a worker waiting out a Redis outage would hold the stop up
    return "stopping this agent: finishing fetches in flight (" + again + "); the other agents carry on with its"
        + " shards";
  }

  @Override
  public String halted() {
    return "sievecrawl: this agent stopped at once; the other agents take over its pages in flight once its leases"
        + " expire";
  }

  @Override
  public UserError seedsUnreadable(UncheckedIOException e) {
    return new UserError(ExitCodes.SEEDS, e.getMessage());
  }

  /**
   * The crawl's counts over every agent: exact once every other agent has ended (each sends its last counts as it
   * ends), else what they had sent so far, said to be so.
   */
  static String allAgentsLine(SharedHome.AllAgents all) {
    Map<String, Long> global = all.counters();
    Map<String, Long> frontier = all.frontier();
    int others = all.othersRunning();
    String counts = String.format(Locale.ROOT, "%,d pages, %,d with a response, %s read; %,d URLs admitted, %,d"
        + " duplicates dropped, %,d still open", global.getOrDefault("pages", 0L), global.getOrDefault("responses", 0L),
        Values.formatSize(global.getOrDefault("bytes", 0L)), frontier.getOrDefault("admitted", 0L),
        frontier.getOrDefault("dropped", 0L), frontier.getOrDefault("open", 0L));
    if (others <= 0) {
      return "  all agents:      " + counts + "; every agent has ended";
    }
    return "  all agents so far: " + counts + "; " + others + (others == 1 ? " other agent" : " other agents")
        + " still running, whose last counts are not in";
  }

  @Override
  public int end(CrawlSummary summary, IOException closing, WarcArchive warc, List<Path> warcDirs,
      boolean warcClosed, RunOutput out) {
    SharedHome.AllAgents all = new SharedHome.AllAgents(Map.of(), Map.of(), 0);
    boolean read = false;
    try {
      all = home.countsAtEnd(summary.end() == CrawlSummary.End.COMPLETED, END_WAIT);
      read = true;
    } catch (FrontierFailure e) {
      log.warn("could not read the crawl's global counters: {}", e.getMessage());
    }
    CrawlRun.report(SummaryReport.sharedLines(summary), summary, out.reports(), out.status(), out.verbosity(),
        out.clocks().wall());
    if (read) {
      out.print(allAgentsLine(all));
    }
    Map<String, Long> global = all.counters();
    Map<String, Long> globalFrontier = all.frontier();
    if (warc != null) {
      for (String line : WarcOutput.summary(warc, warcDirs, null)) {
        out.print(line);
      }
      if (closing == null) {
        out.reports().writeWacz(warcDirs, WaczPackage.Description.DEFAULT, out.status(), out.verbosity(),
            out.clocks().wall()); // this agent's WARC files
      }
    }
    ResultsFile results = out.results();
    Throwable failure = summary.failure();
    if (failure instanceof FrontierFailure e) {
      throw new UserError(ExitCodes.SHARED, CommandName.inHints(e.getMessage()));
    }
    if (failure instanceof UncheckedIOException e) { // the seeds, read while the agent queued them
      throw new UserError(ExitCodes.SEEDS, e.getMessage());
    }
    if (failure instanceof WarcWriteException e) {
      throw new UserError(ExitCodes.OUTPUT, e.getMessage() + "; the agent's unfinished pages go to the other"
          + " agents");
    }
    if (failure instanceof IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write results to " + results.name() + ": " + Errors.reason(e));
    }
    String redis = SharedCrawls.redisFailure(home.uri(), failure);
    if (redis != null) { // from a call besides the frontier's: the shared counters, the scope's sites
      throw new UserError(ExitCodes.SHARED, CommandName.inHints(redis));
    }
    if (failure != null) {
      throw new UserError(ExitCodes.INTERNAL, "the agent failed: " + failure + "; its unfinished pages go to the"
          + " other agents");
    }
    if (closing != null) {
      throw new UserError(ExitCodes.OUTPUT, "cannot finish writing " + results.name() + " or the WARC files: "
          + Errors.reason(closing));
    }
    if (summary.end() == CrawlSummary.End.COMPLETED && global.getOrDefault("responses", 0L) == 0
        && globalFrontier.getOrDefault("admitted", 0L) > 0) {
      throw new UserError(ExitCodes.NOTHING_REACHED, "nothing was fetched by any agent: no server answered");
    }
    if (summary.end() == CrawlSummary.End.COMPLETED && globalFrontier.getOrDefault("open", 1L) <= 0) {
      out.print(CommandName.inHints("the shared crawl stays in Redis until removed with '"
          + SharedCrawls.removalCommand(home.uri(), home.name()) + "'"));
    }
    return summary.end() == CrawlSummary.End.STOPPED ? ExitCodes.INTERRUPTED : ExitCodes.OK;
  }
}

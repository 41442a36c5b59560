package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.CrawlSummary;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.Crawler;
import io.sievecrawl.crawler.Seeds;
import io.sievecrawl.crawler.job.CrawlJob;
import io.sievecrawl.crawler.job.CrawlJobException;
import io.sievecrawl.crawler.warc.WarcArchive;
import io.sievecrawl.crawler.warc.WarcWriteException;
import io.sievecrawl.sieve.FailureLog;
import io.sievecrawl.sieve.FileWriteException;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.disk.DiskFrontier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a crawl in its crawl directory, for {@code crawl} and {@code resume} alike: opens the frontier, runs
 * the crawler with its state saved every few seconds and its results forced to disk on the sync interval, handles
 * Ctrl-C, SIGTERM and SIGHUP, and leaves the directory ready to resume whatever ends the run.
 */
final class CrawlRun {
  static final String CAPACITY_HINT = Setting.FILTER_N.key() + " (-n)";
  private static final Logger log = LoggerFactory.getLogger("sievecrawl");
  /** The totals, the per-origin counts and the cookies are saved this often: a kill loses at most this much of them. */
  private static final long STATE_EVERY_MILLIS = 1_000;

  private CrawlRun() {}

  /**
   * Runs the crawl and returns the exit code.
   *
   * @param temporary whether the directory was made for this crawl without the user naming it: it is deleted
   *     when the crawl completes
   * @param clocks what the crawl, its files and its reports read the time from
   * @throws UserError when the run fails (results or directory unwritable, an internal error), after the summary
   */
  static int run(CrawlJob job, boolean temporary, CrawlSettings settings, Seeds seeds, ResultsFile results,
      ReportOptions reports, StatusLine status, Logging.Verbosity verbosity, Clocks clocks) {
    checkPageLimit(job, settings);
    DiskFrontier<CrawlTask> frontier;
    Crawler crawler;
    List<java.nio.file.Path> warcDirs;
    var skipLog = reports.skipLog();
    WarcArchive warc = WarcOutput.open(settings, job.dir().toAbsolutePath().getFileName().toString(), clocks.wall());
    try {
      job.runStarts();
      frontier = job.openFrontier(settings, CAPACITY_HINT, clocks.ticker());
      Crawler.Builder builder = Crawler.builder(settings, new VerboseResults(results.writer())).frontier(frontier)
          .state(job.loadState()).skipLog(skipLog).visitLog(job.openVisitLog()).ticker(clocks.ticker())
          .clock(clocks.wall())
          .payloadDigests(warc != null || !temporary); // a directory removed at the end takes its visits with it
      if (settings.robots().obey()) {
        builder.robotsStore(job.openRobots(settings.robots().cacheMemory() / 4)); // rules weigh 4x their size there
      }
      if (warc != null) {
        builder.recorder(warc);
      }
      crawler = builder.build();
      warcDirs = warc == null ? List.of() : WarcOutput.recordIn(job.dir(), warc);
    } catch (CrawlJobException e) {
      throw new UserError(ExitCodes.JOB, e.getMessage());
    } catch (IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write the crawl directory " + job.dir() + ": "
          + Errors.reason(e));
    }
    ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "crawl-checkpoint");
      t.setDaemon(true);
      return t;
    });
    FailureLog stateFailures = new FailureLog(log, "cannot save the crawl state in " + job.dir(), clocks.ticker());
    timers.scheduleWithFixedDelay(() -> saveState(job, crawler, stateFailures), STATE_EVERY_MILLIS,
        STATE_EVERY_MILLIS, TimeUnit.MILLISECONDS);
    long sync = settings.frontier().syncInterval().toMillis();
    FailureLog warcFailures = WarcOutput.syncFailures(warc, clocks.ticker());
    FailureLog resultFailures = new FailureLog(log, "cannot force " + results.name() + " to disk", clocks.ticker());
    FailureLog visitFailures = new FailureLog(log, "cannot force the visits in " + job.dir() + " to disk",
        clocks.ticker());
    timers.scheduleWithFixedDelay(() -> {
      WarcOutput.sync(warc, warcFailures); // first: a page's WARC record is written before its result line
      syncResults(results, resultFailures);
      syncVisits(job, visitFailures);
    }, sync, sync, TimeUnit.MILLISECONDS);
    StopSignals signals = StopSignals.install(again -> {
      log.warn("stopping: finishing fetches in flight ({}; '{} resume {}' continues either way)", again,
          CommandName.get(), job.dir());
      crawler.stop();
    }, () -> {
      status.printOver("sievecrawl: stopped at once; the pages that were in flight are fetched again by: "
          + CommandName.get() + " resume " + job.dir());
      results.writer().whenIdle(() -> Runtime.getRuntime().halt(ExitCodes.INTERRUPTED), 1_000);
    });
    CrawlSummary summary;
    ProgressReporter progress = new ProgressReporter(crawler, status, status.isTerminal(), clocks.ticker());
    HeapCeiling heap = HeapCeiling.install();
    print(PaceLine.of(settings.politeness()), status, verbosity);
    try {
      summary = crawler.run(seeds);
    } catch (UncheckedIOException e) {
      throw new UserError(ExitCodes.JOB, "cannot read the seeds of " + job.dir() + ": " + Errors.reason(e.getCause()));
    } finally {
      heap.close();
      progress.close();
      timers.shutdown(); // not shutdownNow: an interrupt inside a state save or an fsync would break its file
      awaitQuietly(timers);
    }
    IOException warcClosing = WarcOutput.close(warc);
    IOException closing = finish(job, frontier, crawler, summary, results);
    closing = closing != null ? closing : warcClosing;
    ReportOptions.close(skipLog);
    boolean completed = summary.end() == CrawlSummary.End.COMPLETED;
    report(SummaryReport.lines(summary, !completed ? SummaryReport.NextRun.RESUME
        : temporary ? SummaryReport.NextRun.NEW_CRAWL : SummaryReport.NextRun.RECRAWL,
        settings.filter().expectedUrls()), summary, reports, status, verbosity, clocks.wall());
    if (warc != null) {
      for (String line : WarcOutput.summary(warc, warcDirs, job.dir())) {
        print(line, status, verbosity);
      }
      if (warcClosing == null) {
        reports.writeWacz(warcDirs, WaczCommand.describe(job.dir()), status, verbosity, clocks.wall());
      }
    }
    if (completed && temporary && closing == null) {
      try {
        job.delete();
      } catch (IOException e) {
        log.warn("could not remove the finished crawl's directory {}: {}", job.dir(), Errors.reason(e));
      }
    } else if (!completed) {
      print("continue this crawl with: " + CommandName.get() + " resume " + job.dir(), status, verbosity);
    }
    return exitCode(summary, closing, results, job);
  }

  /**
   * Refuses a page limit the crawl has reached already: crawl.max-pages counts every run of a crawl, so that
   * {@code resume DIR --max-pages 25} after 31 pages would fetch nothing and only say "page limit".
   */
  private static void checkPageLimit(CrawlJob job, CrawlSettings settings) {
    long limit = settings.crawl().maxPages();
    if (limit > 0 && job.runs() > 0) {
      long pages;
      try {
        pages = job.loadState().totals().pagesStarted();
      } catch (CrawlJobException e) {
        throw new UserError(ExitCodes.JOB, e.getMessage());
      } catch (IOException e) {
        throw new UserError(ExitCodes.JOB, "cannot read the state of " + job.dir() + ": " + Errors.reason(e));
      }
      if (pages >= limit) {
        throw new UserError(ExitCodes.CONFIG, String.format(Locale.ROOT, "the crawl in %s already has %,d pages,"
            + " and --max-pages (%s) counts every run of a crawl: give more than %,d to fetch more (%,d for %,d"
            + " more pages), or 0 for no limit", job.dir(), pages, Setting.MAX_PAGES.key(), pages, pages + limit,
            limit));
      }
    }
  }

  /** Forces the generation's visits to disk with the results (power cuts). */
  private static void syncVisits(CrawlJob job, FailureLog failures) {
    try {
      job.syncVisits();
    } catch (IOException e) {
      failures.failed(Errors.reason(e));
    }
  }

  /** Why a crawl with work fetched no page: robots.txt refused it, origins were given up, or no server answered. */
  private static String whyNothing(CrawlSummary summary) {
    List<String> why = new ArrayList<>();
    long disallowed = summary.skipped().getOrDefault("robots", 0L);
    if (disallowed > 0) {
      why.add("robots.txt disallowed " + (disallowed == 1 ? "the only URL"
          : String.format(Locale.ROOT, "all %,d URLs", disallowed)));
    }
    if (!summary.givenUp().isEmpty()) {
      why.add(String.format(Locale.ROOT, "%,d origins given up (see above)", summary.givenUp().size()));
    }
    if (why.isEmpty()) {
      why.add("no server answered");
    }
    return String.join("; ", why) + (summary.errors().isEmpty() ? "" : "; errors: "
        + SummaryReport.join(summary.errors()));
  }

  /** Checkpoints the frontier, saves the state and the status, closes everything; returns the first failure. */
  private static IOException finish(CrawlJob job, DiskFrontier<CrawlTask> frontier, Crawler crawler,
      CrawlSummary summary, ResultsFile results) {
    IOException first = null;
    try {
      results.close();
    } catch (IOException e) {
      first = e;
    }
    try {
      frontier.checkpoint();
    } catch (IOException | FrontierFailure e) {
      log.warn("could not write the final frontier checkpoint ({}); resume replays the log instead",
          e.getMessage());
    }
    try {
      frontier.close();
      job.writeState(crawler.state());
      job.runEnded(switch (summary.end()) {
        case COMPLETED -> CrawlJob.Status.COMPLETED;
        case PAGE_LIMIT -> CrawlJob.Status.PAGE_LIMIT;
        case TIME_LIMIT -> CrawlJob.Status.TIME_LIMIT;
        case STOPPED -> CrawlJob.Status.STOPPED;
        case FAILED -> CrawlJob.Status.FAILED;
      });
    } catch (IOException e) {
      if (first == null) {
        first = e;
      }
    }
    return first;
  }

  private static int exitCode(CrawlSummary summary, IOException closing, ResultsFile results, CrawlJob job) {
    Throwable failure = summary.failure();
    if (failure instanceof FrontierFailure e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write the crawl directory " + job.dir() + ": "
          + Errors.reason(e.getCause()) + "; free the space or fix the permissions, then: " + CommandName.get() + " resume "
          + job.dir());
    }
    if (failure instanceof WarcWriteException e) {
      throw new UserError(ExitCodes.OUTPUT, e.getMessage() + "; free the space or fix the permissions, then:"
          + " " + CommandName.get() + " resume " + job.dir());
    }
    if (failure instanceof UncheckedIOException e) { // the seeds, read while the crawl runs
      throw new UserError(ExitCodes.JOB, e.getMessage() + " in " + job.dir() + "; then: " + CommandName.get()
          + " resume " + job.dir());
    }
    if (failure instanceof FileWriteException e) { // a file of the crawl directory (its visits), not the results
      throw new UserError(ExitCodes.OUTPUT, "cannot write " + e.file() + ": " + e.reason() + "; free the space or fix"
          + " the permissions, then: " + CommandName.get() + " resume " + job.dir());
    }
    if (failure instanceof IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write results to " + results.name() + ": " + Errors.reason(e)
          + "; then: " + CommandName.get() + " resume " + job.dir());
    }
    if (failure != null) {
      throw new UserError(ExitCodes.INTERNAL, "the crawl failed: " + failure + "; the pages it was fetching are"
          + " kept for '" + CommandName.get() + " resume " + job.dir() + "' (with a larger -Xmx in SIEVECRAWL_OPTS for an"
          + " OutOfMemoryError)");
    }
    if (closing instanceof FileWriteException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot finish writing " + e.file() + ": " + e.reason());
    }
    if (closing != null) {
      throw new UserError(ExitCodes.OUTPUT, "cannot finish writing " + results.name() + ", " + job.dir()
          + " or the WARC files: " + Errors.reason(closing));
    }
    if (summary.end() == CrawlSummary.End.COMPLETED && summary.reachedNothing()) {
      throw new UserError(ExitCodes.NOTHING_REACHED, "nothing was fetched: " + whyNothing(summary));
    }
    return summary.end() == CrawlSummary.End.STOPPED ? ExitCodes.INTERRUPTED : ExitCodes.OK;
  }

  /** Reports {@code lines} (the summary of {@code summary}), the filter's detail, the busiest origins, the stats. */
  static void report(List<String> lines, CrawlSummary summary, ReportOptions reports, StatusLine status,
      Logging.Verbosity verbosity, Clock clock) {
    for (String line : lines) {
      print(line, status, verbosity);
    }
    log.info(SummaryReport.filterDetail(summary)); // in the log, and on the console with -v
    log.info(SummaryReport.connectionDetail(summary));
    List<String> top = ReportOptions.originLines(summary, Math.max(10, reports.hosts));
    for (int i = 0; i < top.size(); i++) {
      if (i <= 10) {
        log.info(top.get(i)); // the log always gets the ten busiest origins (after the heading)
      }
      if (reports.hosts > 0 && i <= reports.hosts && verbosity == Logging.Verbosity.NORMAL) {
        status.println(top.get(i));
      }
    }
    reports.writeStats(summary, clock);
  }

  /**
   * A line for the log and the console: once, however verbose the console is (it shows INFO with -v); wrapped on a
   * terminal.
   */
  static void print(String line, StatusLine status, Logging.Verbosity verbosity) {
    log.info(line);
    if (verbosity == Logging.Verbosity.NORMAL) {
      status.printWrapped(line);
    }
  }

  private static void awaitQuietly(ScheduledExecutorService timers) {
    try {
      timers.awaitTermination(1, TimeUnit.MINUTES); // a state save in progress finishes before the final one
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void saveState(CrawlJob job, Crawler crawler, FailureLog failures) {
    try {
      job.writeState(crawler.state());
      failures.succeeded();
    } catch (IOException | RuntimeException e) {
      failures.failed(String.valueOf(e.getMessage()));
    }
  }

  private static void syncResults(ResultsFile results, FailureLog failures) {
    try {
      results.sync();
      failures.succeeded();
    } catch (IOException e) {
      failures.failed(Errors.reason(e));
    }
  }
}

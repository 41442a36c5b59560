package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.Crawler;
import io.sievecrawl.crawler.CrawlerBuilder;
import io.sievecrawl.crawler.Seeds;
import io.sievecrawl.crawler.home.CrawlHome;
import io.sievecrawl.crawler.home.RunOptions;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.warc.WarcArchive;
import io.sievecrawl.sieve.FailureLog;
import io.sievecrawl.sieve.FrontierFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a crawl in any home, for {@code crawl}, {@code resume}, {@code recrawl} and {@code join} alike: starts
 * the run in the home, runs the crawler with its state saved every second and its results forced to disk on the
 * sync interval, handles Ctrl-C, SIGTERM and SIGHUP, and ends the run in the home whatever ends it. What differs by
 * kind of home (its words, its summary, its exit codes) is a {@link HomeRun}: {@link DirectoryRun} or
 * {@link SharedRun}.
 */
final class CrawlRun {
  static final String CAPACITY_HINT = Setting.FILTER_N.key() + " (-n)";
  private static final Logger log = LoggerFactory.getLogger(CrawlRun.class);
  /** The state is saved this often: a kill loses at most this much of the totals, page counts and cookies. */
  private static final long STATE_EVERY_MILLIS = 1_000;

  private CrawlRun() {}

  /**
   * Runs the crawl and returns the exit code.
   *
   * @throws UserError when the run fails (results or home unwritable, an internal error), after the summary
   */
  static int run(HomeRun kind, Seeds seeds, RunOutput out) {
    kind.check();
    CrawlHome home = kind.home();
    CrawlSettings settings = out.settings();
    Clocks clocks = out.clocks();
    ResultsFile results = out.results();
    var skipLog = out.reports().skipLog();
    WarcArchive warc = WarcOutput.open(settings, kind.warcName(), clocks.wall());
    Crawler crawler;
    List<Path> warcDirs;
    try {
      home.runStarts(new RunOptions(settings, CAPACITY_HINT, clocks.ticker()));
      CrawlerBuilder builder = Crawler.builder(settings, home.recording(new VerboseResults(results.writer())))
          .home(home).skipLog(skipLog).ticker(clocks.ticker()).clock(clocks.wall())
          .payloadDigests(kind.payloadDigests(warc != null));
      if (warc != null) {
        builder.recorder(warc);
      }
      crawler = builder.build();
      warcDirs = warc == null ? List.of() : kind.warcDirs(warc);
    } catch (IOException | FrontierFailure e) {
      throw kind.cannotStart(e);
    }
    kind.started();
    ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "crawl-checkpoint");
      t.setDaemon(true);
      return t;
    });
    FailureLog stateFailures = new FailureLog(log, "cannot save the crawl state in " + home.where(),
        clocks.ticker());
    timers.scheduleWithFixedDelay(() -> saveState(home, crawler, stateFailures), STATE_EVERY_MILLIS,
        STATE_EVERY_MILLIS, TimeUnit.MILLISECONDS);
    long sync = settings.frontier().syncInterval().toMillis();
    FailureLog warcFailures = WarcOutput.syncFailures(warc, clocks.ticker());
    FailureLog resultFailures = new FailureLog(log, "cannot force " + results.name() + " to disk", clocks.ticker());
    FailureLog homeFailures = new FailureLog(log, "cannot force the visits in " + home.where() + " to disk",
        clocks.ticker());
    timers.scheduleWithFixedDelay(() -> {
      WarcOutput.sync(warc, warcFailures); // first: a page's WARC record is written before its result line
      syncResults(results, resultFailures);
      syncHome(home, homeFailures);
    }, sync, sync, TimeUnit.MILLISECONDS);
    StatusLine status = out.status();
    StopSignals.install(again -> {
      log.warn(kind.stopping(again));
      crawler.stop();
    }, () -> {
      status.printOver(kind.halted());
      results.writer().whenIdle(() -> Runtime.getRuntime().halt(ExitCodes.INTERRUPTED), 1_000);
    });
    CrawlSummary summary;
    ProgressReporter progress = new ProgressReporter(crawler, status, status.isTerminal(), clocks.ticker());
    HeapCeiling heap = HeapCeiling.install();
    out.print(PaceLine.of(settings.politeness()));
    try {
      summary = crawler.run(seeds);
    } catch (UncheckedIOException e) {
      throw kind.seedsUnreadable(e);
    } finally {
      heap.close();
      progress.close();
      timers.shutdown(); // not shutdownNow: an interrupt inside a state save or an fsync would break its file
      awaitQuietly(timers);
    }
    IOException warcClosing = WarcOutput.close(warc);
    IOException closing = endRun(home, crawler, summary, results);
    ReportOptions.close(skipLog);
    return kind.end(summary, closing != null ? closing : warcClosing, warc, warcDirs, warcClosing == null, out);
  }

  /** Closes the results, then ends the run in the home (its frontier checkpointed); returns the first failure. */
  private static IOException endRun(CrawlHome home, Crawler crawler, CrawlSummary summary, ResultsFile results) {
    IOException first = null;
    try {
      results.close();
    } catch (IOException e) {
      first = e;
    }
    try {
      home.runEnded(summary.end(), crawler.state());
    } catch (IOException e) {
      if (first == null) {
        first = e;
      }
    }
    return first;
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

  private static void saveState(CrawlHome home, Crawler crawler, FailureLog failures) {
    try {
      home.save(crawler.state());
      failures.succeeded();
    } catch (IOException | RuntimeException e) {
      failures.failed(String.valueOf(e.getMessage()));
    }
  }

  /** Forces what the home keeps besides the frontier (the visits) to disk with the results (power cuts). */
  private static void syncHome(CrawlHome home, FailureLog failures) {
    try {
      home.sync();
    } catch (IOException e) {
      failures.failed(Errors.reason(e));
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

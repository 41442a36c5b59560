package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.FilterSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.Seeds;
import io.sievecrawl.crawler.home.CrawlIdentity;
import io.sievecrawl.crawler.job.DirectoryHome;
import io.sievecrawl.crawler.job.CrawlJobException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code sievecrawl resume DIR}: continues a crawl from its crawl directory, whatever interrupted it. */
@Command(name = "resume", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = SievecrawlCommand.VersionProvider.class,
    description = {"Continues the crawl in DIR with its recorded settings, after Ctrl-C, kill -9, a crash or a limit.",
        "Results are appended to the crawl's results file. Flags may change concurrency, delays, limits and the log"
            + " for this run; n and p (the URL filter) and the scope (--scope, --include, --exclude) cannot change."})
class ResumeCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ResumeCommand.class);

  final Terminal terminal;
  final Clocks clocks;

  @Parameters(index = "0", paramLabel = "DIR", description = "The crawl directory (crawl --job DIR, or the one"
      + " 'crawl' printed).")
  Path dir;

  @Mixin
  SettingsOptions settingsOptions;

  @ArgGroup(validate = false, heading = "%nReports:%n", order = 65)
  ReportOptions reports = new ReportOptions();

  @ArgGroup(validate = false, heading = "%nLog and console:%n", order = 100)
  LogOptions logOptions = new LogOptions();

  ResumeCommand(Terminal terminal, Clocks clocks) {
    this.terminal = terminal;
    this.clocks = clocks;
  }

  @Override
  public Integer call() {
    reports.packagingAs(settingsOptions.wacz());
    DirectoryHome job;
    try {
      job = DirectoryHome.open(dir, clocks.wall());
    } catch (CrawlJobException e) {
      throw new UserError(ExitCodes.JOB, e.getMessage());
    } catch (IOException e) {
      throw new UserError(ExitCodes.JOB, "cannot read the crawl directory " + dir + ": " + Errors.reason(e));
    }
    try {
      return resume(job);
    } finally {
      try {
        job.close(); // the directory's lock: another process may work the crawl now
      } catch (IOException e) {
        log.warn("could not release the lock of {}: {}", dir, Errors.reason(e));
      }
    }
  }

  private int resume(DirectoryHome job) {
    CrawlSettings settings = settingsOptions.settings(job.settingsFile());
    checkFixed(settings, job);
    OutputPaths outputs = reports.addTo(OutputPaths.of(dir).file("the crawl's results file", job.output())
        .file("--log-file", logOptions.logFile)).folder("--warc", settings.warc().dir());
    outputs.checkNotCrawlFiles(); // before a new n is recorded
    outputs.checkDistinct();
    FilterFit.check(settings, true);
    resizeFilterIfAsked(settings, job);
    reports.checkWritable();
    reports.checkWacz(settings);
    if (nothingToDo(job)) {
      return ExitCodes.OK;
    }
    StatusLine status = StatusLine.of(terminal.err(),
        terminal.interactive() && logOptions.verbosity() != Logging.Verbosity.QUIET, clocks.ticker());
    Logging.configure(status, logOptions.logFile, logOptions.verbosity());
    int code;
    try {
      prepare(job, settings);
      Seeds seeds;
      try {
        seeds = job.seeds();
      } catch (IOException e) {
        throw new UserError(ExitCodes.JOB, "cannot read the seeds of " + dir + ": " + Errors.reason(e));
      }
      log.info("crawl resumes from {} (run {}), results appended to {}", dir, job.runs() + 1, job.output());
      CrawlCommand.logSettings(settings, logOptions);
      ResultsFile results = ResultsFile.append(job.output(), terminal.out());
      code = CrawlRun.run(new DirectoryRun(job, job.removedWhenComplete(), settings), seeds,
          new RunOutput(settings, results, reports, status, logOptions.verbosity(), clocks));
    } catch (RuntimeException e) {
      Logging.shutdown();
      throw e;
    }
    return Logging.finish(code);
  }

  /** Whether the crawl is complete, said so: a resume has nothing to do then. */
  boolean nothingToDo(DirectoryHome job) {
    if (job.status() == DirectoryHome.Status.COMPLETED) {
      terminal.err().println("sievecrawl: the crawl in " + dir + " is complete: nothing to resume");
      return true;
    }
    return false;
  }

  /** What is done before the run, once the log is open: nothing for a resume. */
  void prepare(DirectoryHome job, CrawlSettings settings) {}

  /**
   * Settings that decided which links the crawl kept and which it dropped; a resumed run could only apply a new value
   * to the pages it has left, so they cannot change.
   */
  private static final List<Setting<?>> FIXED_SCOPE = List.of(Setting.SCOPE, Setting.INCLUDE, Setting.EXCLUDE,
      Setting.STRIP_SESSION_IDS);

  /**
   * The scope settings ({@link #FIXED_SCOPE}) decided what the URL filter holds: they cannot change. The filter's
   * settings follow the crawl's identity ({@link CrawlIdentity#mismatch}).
   */
  private void checkFixed(CrawlSettings settings, DirectoryHome job) {
    CrawlSettings recorded = settingsOptions.recorded(job.settingsFile());
    for (Setting<?> setting : FIXED_SCOPE) {
      String was = shown(recorded, setting);
      String given = shown(settings, setting);
      if (!was.equals(given)) {
        throw new UserError(ExitCodes.CONFIG, setting.key() + " cannot change when a crawl resumes: it decided which"
            + " links the crawl in " + dir + " kept, and it has " + was + " (given " + settings.origin(setting) + ": "
            + given + "); start a new crawl for another scope");
      }
    }
    job.identity().mismatch(settings, CrawlIdentity.RESUMES, "the crawl in " + dir, true).ifPresent(why -> {
      throw new UserError(ExitCodes.CONFIG, why);
    });
  }

  /**
   * Records a new n or p for a confirmed crawl; the frontier rebuilds its filter from the exact store when it opens
   * (and logs it).
   */
  private void resizeFilterIfAsked(CrawlSettings settings, DirectoryHome job) {
    if (!job.identity().resizedBy(settings)) {
      return;
    }
    FilterSettings filter = settings.filter();
    try {
      job.resizeFilter(filter.expectedUrls(), filter.falsePositiveRate());
    } catch (IOException e) {
      throw new UserError(ExitCodes.JOB, "cannot record the new filter size in " + dir + ": " + Errors.reason(e));
    }
  }

  /** A setting's value as a config file holds it, unquoted; an empty one as {@code none}. */
  private static String shown(CrawlSettings settings, Setting<?> setting) {
    String value = String.join(" ", settings.shownValues().get(setting.key()));
    value = value.startsWith("\"") ? value.substring(1, value.length() - 1) : value;
    return value.isEmpty() ? "none" : value;
  }
}

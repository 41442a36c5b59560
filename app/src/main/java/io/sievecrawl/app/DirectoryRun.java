package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.home.CrawlHome;
import io.sievecrawl.crawler.job.CrawlJobException;
import io.sievecrawl.crawler.job.DirectoryHome;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.warc.WarcArchive;
import io.sievecrawl.crawler.warc.WarcWriteException;
import io.sievecrawl.sieve.FileWriteException;
import io.sievecrawl.sieve.FrontierFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run in a crawl directory, for {@code crawl}, {@code resume} and {@code recrawl}: what it checks first, how it
 * names the directory in its messages, and that every way out says how to continue ({@code resume DIR}).
 */
final class DirectoryRun implements HomeRun {
  private static final Logger log = LoggerFactory.getLogger(DirectoryRun.class);

  private final DirectoryHome home;
  private final boolean temporary;
  private final CrawlSettings settings;

  /**
   * @param temporary whether the directory was made for this crawl without the user naming it: it is deleted
   *     when the crawl completes
   */
  DirectoryRun(DirectoryHome home, boolean temporary, CrawlSettings settings) {
    this.home = home;
    this.temporary = temporary;
    this.settings = settings;
  }

  @Override
  public CrawlHome home() {
    return home;
  }

  @Override
  public String warcName() {
    return home.dir().toAbsolutePath().getFileName().toString();
  }

  @Override
  public boolean payloadDigests(boolean archived) {
    return archived || !temporary; // a directory removed at the end takes its visits with it
  }

  @Override
  public List<Path> warcDirs(WarcArchive warc) {
    return WarcOutput.recordIn(home.dir(), warc);
  }

  /**
   * Refuses a page limit the crawl has reached already: crawl.max-pages counts every run of a crawl, so that
   * {@code resume DIR --max-pages 25} after 31 pages would fetch nothing and only say "page limit".
   */
  @Override
  public void check() {
    long limit = settings.crawl().maxPages();
    if (limit > 0 && home.runs() > 0) {
      long pages;
      try {
        pages = home.loadState().totals().pagesStarted();
      } catch (CrawlJobException e) {
        throw new UserError(ExitCodes.JOB, e.getMessage());
      } catch (IOException e) {
        throw new UserError(ExitCodes.JOB, "cannot read the state of " + home.dir() + ": " + Errors.reason(e));
      }
      if (pages >= limit) {
        throw new UserError(ExitCodes.CONFIG, String.format(Locale.ROOT, "the crawl in %s already has %,d pages,"
            + " and --max-pages (%s) counts every run of a crawl: give more than %,d to fetch more (%,d for %,d"
            + " more pages), or 0 for no limit", home.dir(), pages, Setting.MAX_PAGES.key(), pages, pages + limit,
            limit));
      }
    }
  }

  @Override
  public UserError cannotStart(Exception e) {
    if (e instanceof RuntimeException unexpected) {
      throw unexpected;
    }
    if (e instanceof CrawlJobException) {
      return new UserError(ExitCodes.JOB, e.getMessage());
    }
    return new UserError(ExitCodes.OUTPUT, "cannot write the crawl directory " + home.dir() + ": "
        + Errors.reason((IOException) e));
  }

  @Override
  public String stopping(String again) {
    return "stopping: finishing fetches in flight (" + again + "; '" + CommandName.get() + " resume " + home.dir()
        + "' continues either way)";
  }

  @Override
  public String halted() {
    return "sievecrawl: stopped at once; the pages that were in flight are fetched again by: " + CommandName.get()
        + " resume " + home.dir();
  }

  @Override
  public UserError seedsUnreadable(UncheckedIOException e) {
    return new UserError(ExitCodes.JOB, "cannot read the seeds of " + home.dir() + ": " + Errors.reason(e.getCause()));
  }

  @Override
  public int end(CrawlSummary summary, IOException closing, WarcArchive warc, List<Path> warcDirs,
      boolean warcClosed, RunOutput out) {
    boolean completed = summary.end() == CrawlSummary.End.COMPLETED;
    CrawlRun.report(SummaryReport.lines(summary, !completed ? SummaryReport.NextRun.RESUME
        : temporary ? SummaryReport.NextRun.NEW_CRAWL : SummaryReport.NextRun.RECRAWL,
        settings.filter().expectedUrls()), summary, out.reports(), out.status(), out.verbosity(),
        out.clocks().wall());
    if (warc != null) {
      for (String line : WarcOutput.summary(warc, warcDirs, home.dir())) {
        out.print(line);
      }
      if (warcClosed) {
        out.reports().writeWacz(warcDirs, WaczCommand.describe(home.dir()), out.status(), out.verbosity(),
            out.clocks().wall());
      }
    }
    if (completed && temporary && closing == null) {
      try {
        home.delete();
      } catch (IOException e) {
        log.warn("could not remove the finished crawl's directory {}: {}", home.dir(), Errors.reason(e));
      }
    } else if (!completed) {
      out.print("continue this crawl with: " + CommandName.get() + " resume " + home.dir());
    }
    return exitCode(summary, closing, out.results());
  }

  private int exitCode(CrawlSummary summary, IOException closing, ResultsFile results) {
    Throwable failure = summary.failure();
    String resume = CommandName.get() + " resume " + home.dir();
    if (failure instanceof FrontierFailure e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write the crawl directory " + home.dir() + ": "
          + Errors.reason(e.getCause()) + "; free the space or fix the permissions, then: " + resume);
    }
    if (failure instanceof WarcWriteException e) {
      throw new UserError(ExitCodes.OUTPUT, e.getMessage() + "; free the space or fix the permissions, then: "
          + resume);
    }
    if (failure instanceof UncheckedIOException e) { // the seeds, read while the crawl runs
      throw new UserError(ExitCodes.JOB, e.getMessage() + " in " + home.dir() + "; then: " + resume);
    }
    if (failure instanceof FileWriteException e) { // a file of the crawl directory (its visits), not the results
      throw new UserError(ExitCodes.OUTPUT, "cannot write " + e.file() + ": " + e.reason() + "; free the space or fix"
          + " the permissions, then: " + resume);
    }
    if (failure instanceof IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write results to " + results.name() + ": " + Errors.reason(e)
          + "; then: " + resume);
    }
    if (failure != null) {
      throw new UserError(ExitCodes.INTERNAL, "the crawl failed: " + failure + "; the pages it was fetching are"
          + " kept for '" + resume + "' (with a larger -Xmx in SIEVECRAWL_OPTS for an OutOfMemoryError)");
    }
    if (closing instanceof FileWriteException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot finish writing " + e.file() + ": " + e.reason());
    }
    if (closing != null) {
      throw new UserError(ExitCodes.OUTPUT, "cannot finish writing " + results.name() + ", " + home.dir()
          + " or the WARC files: " + Errors.reason(closing));
    }
    if (summary.end() == CrawlSummary.End.COMPLETED && summary.reachedNothing()) {
      throw new UserError(ExitCodes.NOTHING_REACHED, "nothing was fetched: " + whyNothing(summary));
    }
    return summary.end() == CrawlSummary.End.STOPPED ? ExitCodes.INTERRUPTED : ExitCodes.OK;
  }

  /** Why a crawl with work fetched no page: robots.txt refused it, origins were given up, or no server answered. */
  private static String whyNothing(CrawlSummary summary) {
    List<String> why = new ArrayList<>();
    long disallowed = summary.skipped(SkipReason.ROBOTS);
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
}

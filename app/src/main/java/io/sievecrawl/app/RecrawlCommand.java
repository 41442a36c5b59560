package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.RecrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.home.RunOptions;
import io.sievecrawl.crawler.job.DirectoryHome;
import io.sievecrawl.crawler.job.CrawlJobException;
import java.io.IOException;
import java.time.Instant;
import picocli.CommandLine.Command;

/**
 * {@code sievecrawl recrawl DIR}: visits a crawl's URLs again, a new generation of the crawl in DIR, with the
 * options of {@code resume}.
 */
@Command(name = "recrawl", sortOptions = false, mixinStandardHelpOptions = true,
    versionProvider = SievecrawlCommand.VersionProvider.class,
    description = {"Visits again the URLs of the crawl in DIR (finished or stopped) last fetched longer ago than"
        + " recrawl.after, each with a conditional GET, and follows the links found as any crawl does.",
        "A page found unchanged (304 Not Modified, or the same payload digest) is recorded with a 'revisit' field,"
            + " and archived as a WARC revisit record with --warc. URLs that answered 404 or 410 recrawl.forget-after"
            + " times in a row are forgotten. Results are appended to the crawl's results file; kill it and"
            + " 'resume DIR' continues the recrawl. Flags as for resume."})
final class RecrawlCommand extends ResumeCommand {

  RecrawlCommand(Terminal terminal, Clocks clocks) {
    super(terminal, clocks);
  }

  @Override
  boolean nothingToDo(DirectoryHome job) {
    return false; // a complete crawl is what a recrawl starts from
  }

  @Override
  void prepare(DirectoryHome job, CrawlSettings settings) {
    RecrawlSettings recrawl = settings.recrawl();
    Instant cutoff = clocks.wall().instant().minus(recrawl.after());
    try {
      job.startRecrawl(cutoff, recrawl.forgetAfter(),
          new RunOptions(settings, Setting.FILTER_N.key(), clocks.ticker()));
    } catch (CrawlJobException e) {
      throw new UserError(ExitCodes.JOB, e.getMessage());
    } catch (IOException e) {
      throw new UserError(ExitCodes.JOB, "cannot start the recrawl of " + dir + ": " + Errors.reason(e));
    }
  }
}

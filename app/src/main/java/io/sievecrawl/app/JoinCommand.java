package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.Seeds;
import io.sievecrawl.crawler.home.CrawlIdentity;
import io.sievecrawl.crawler.home.SharedCrawls;
import io.sievecrawl.crawler.home.SharedHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sievecrawl join}: one more agent for a crawl shared through Redis, without seeds. */
@Command(name = "join", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = SievecrawlCommand.VersionProvider.class,
    description = {"Adds an agent to the crawl --crawl-name shared through --redis: it takes a share of the crawl's"
        + " origins and works them until nothing is left anywhere, writing its own results file. A crawl not started"
        + " yet is waited for up to a minute.",
        "The crawl's own settings apply; flags may change this agent's concurrency, delays, limits and log."})
final class JoinCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(JoinCommand.class);

  private final Terminal terminal;
  private final Clocks clocks;

  @Mixin
  SharedCrawlOptions sharedCrawl = new SharedCrawlOptions();

  @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "crawl.jsonl",
      description = "This agent's JSON Lines results; '-' for standard output (default: ${DEFAULT-VALUE}). An"
          + " existing non-empty file is refused unless --overwrite.")
  String output;

  @Option(names = "--overwrite", description = "Replace an existing results file instead of refusing to start.")
  boolean overwrite;

  @Option(names = "--append", description = "Add to an existing results file instead of refusing to start: an agent"
      + " of a shared crawl restarted with its own file (a torn last line is cut off first).")
  boolean append;

  @Mixin
  SettingsOptions settingsOptions;

  @ArgGroup(validate = false, heading = "%nReports:%n", order = 65)
  ReportOptions reports = new ReportOptions();

  @ArgGroup(validate = false, heading = "%nLog and console:%n", order = 100)
  LogOptions logOptions = new LogOptions();

  JoinCommand(Terminal terminal, Clocks clocks) {
    this.terminal = terminal;
    this.clocks = clocks;
  }

  @Override
  public Integer call() {
    reports.packagingAs(settingsOptions.wacz());
    reports.addTo(OutputPaths.of(null).file("-o", output).file("--log-file", logOptions.logFile)).checkDistinct();
    reports.checkWritable(); // before anything is created or emptied
    ResultsFile.checkAppend(append, overwrite);
    ResultsFile.checkNew(output, overwrite || append);
    SharedHome crawl = SharedRun.open(sharedCrawl.redis, sharedCrawl.crawlName, null, true, clocks);
    CrawlSettings settings;
    try {
      Path base = Files.createTempFile("sievecrawl-shared", ".conf");
      try {
        // WARC files are this agent's own output, like its results file: the starter's directory is not inherited.
        Files.writeString(base, crawl.settingsText().lines()
            .filter(line -> !line.startsWith(Setting.WARC_DIR.key() + " ")).collect(Collectors.joining("\n")));
        settings = settingsOptions.settings(base);
      } finally {
        Files.deleteIfExists(base);
      }
    } catch (IOException e) {
      crawl.close();
      throw new UserError(ExitCodes.OUTPUT, "cannot write a temporary file: " + Errors.reason(e));
    } catch (UserError e) {
      crawl.close();
      throw e;
    }
    try {
      reports.checkWacz(settings);
    } catch (UserError e) {
      crawl.close();
      throw e;
    }
    Optional<String> why = crawl.identity().mismatch(settings, CrawlIdentity.JOINS, "the shared crawl "
        + crawl.where(), false);
    if (why.isPresent()) {
      crawl.close();
      throw new UserError(ExitCodes.CONFIG, why.get());
    }
    StatusLine status = StatusLine.of(terminal.err(),
        terminal.interactive() && logOptions.verbosity() != Logging.Verbosity.QUIET, clocks.ticker());
    Logging.configure(status, logOptions.logFile, logOptions.verbosity());
    int code;
    try {
      log.info("agent joins the shared crawl '{}' in {}, results to {}", sharedCrawl.crawlName,
          SharedCrawls.shown(sharedCrawl.redis), output);
      CrawlCommand.logSettings(settings, logOptions);
      try (crawl) {
        code = CrawlRun.run(new SharedRun(crawl), Seeds.of(List.of()), new RunOutput(settings,
            ResultsFile.forAgent(output, append, overwrite, terminal.out()), reports, status, logOptions.verbosity(),
            clocks));
      }
    } catch (RuntimeException e) {
      Logging.shutdown();
      throw e;
    }
    return Logging.finish(code);
  }
}

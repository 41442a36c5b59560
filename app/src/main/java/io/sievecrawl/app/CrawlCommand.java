package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.Seeds;
import io.sievecrawl.crawler.home.SharedCrawls;
import io.sievecrawl.crawler.home.SharedHome;
import io.sievecrawl.crawler.job.DirectoryHome;
import io.sievecrawl.crawler.job.CrawlJobException;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sievecrawl crawl SEEDS}: the main job. */
@Command(name = "crawl", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = SievecrawlCommand.VersionProvider.class,
    description = {"Crawls from the seed URLs in SEEDS and writes one JSON line per fetched page.",
        "Everything needed to continue lives in a crawl directory (--job): after Ctrl-C, kill -9 or a crash,"
            + " 'sievecrawl resume DIR' carries on.",
        "Settings: defaults < config file (-c) < flags. The capacity warning in the log starts with"
            + " 'URL filter over capacity'."})
final class CrawlCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(CrawlCommand.class);
  private static final DateTimeFormatter JOB_STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  private final Terminal terminal;
  private final Clocks clocks;

  @Parameters(index = "0", arity = "0..1", paramLabel = "SEEDS",
      description = "File of seed URLs, one per line (# comments); '-' reads standard input; or one http(s) URL,"
          + " crawled as the only seed.")
  String seeds;

  @ArgGroup(validate = false, heading = "%nOutput:%n", order = 50)
  Output out = new Output();

  @ArgGroup(validate = false, heading = "%nShared crawls (agents on one or more machines):%n", order = 80)
  Shared shared = new Shared();

  static final class Output {
    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "crawl.jsonl",
        description = "JSON Lines results, one object per fetched URL; '-' for standard output (default:"
            + " ${DEFAULT-VALUE}). An existing non-empty file is refused unless --overwrite.")
    String output;

    @Option(names = "--overwrite", description = "Replace an existing results file instead of refusing to start.")
    boolean overwrite;

    @Option(names = "--append", description = "Add to an existing results file instead of refusing to start: an"
        + " agent of a shared crawl restarted with its own file (a torn last line is cut off first).")
    boolean append;

    @Option(names = "--job", paramLabel = "DIR",
        description = "Crawl directory: settings, seeds, frontier, filter checkpoints, state. A new or empty"
            + " directory; default: a new ./sievecrawl-job-YYYYMMDD-HHMMSS, removed when the crawl completes.")
    Path job;
  }

  static final class Shared {
    @Option(names = "--redis", paramLabel = "URI",
        description = "Share the crawl with other agents through Redis (redis://HOST:PORT/DB, or any nodes of a"
            + " Redis Cluster: redis://HOST1:PORT1,HOST2:PORT2; a password from SIEVECRAWL_REDIS_PASSWORD, which ps"
            + " does not show, or redis://:PASSWORD@...): starts the crawl"
            + " --crawl-name, or joins it if it exists with the same n and p. Replaces --job (default none).")
    String redis;

    @Option(names = "--crawl-name", paramLabel = "NAME",
        description = "The shared crawl's name in Redis (letters, digits, . _ -); with --redis.")
    String crawlName;
  }

  @Option(names = "--strict-seeds", description = "Fail on an invalid seed line instead of skipping it with a warning.")
  boolean strictSeeds;

  @Option(names = "--print-settings", description = "Print the effective settings (and where each comes from) and exit.")
  boolean printSettings;

  @Mixin
  SettingsOptions settingsOptions;

  @ArgGroup(validate = false, heading = "%nReports:%n", order = 65)
  ReportOptions reports = new ReportOptions();

  @ArgGroup(validate = false, heading = "%nLog and console:%n", order = 100)
  LogOptions logOptions = new LogOptions();

  CrawlCommand(Terminal terminal, Clocks clocks) {
    this.terminal = terminal;
    this.clocks = clocks;
  }

  @Override
  public Integer call() {
    CrawlSettings settings = settingsOptions.settings();
    reports.packagingAs(settingsOptions.wacz());
    if (printSettings) {
      settings.describe().forEach(terminal.out()::println);
      terminal.out().flush();
      return ExitCodes.OK;
    }
    if (seeds == null) {
      throw new UserError(ExitCodes.USAGE, "missing SEEDS: a file of seed URLs, or '-' for standard input");
    }
    if ((shared.redis == null) != (shared.crawlName == null)) {
      throw new UserError(ExitCodes.USAGE, "--redis and --crawl-name go together: the Redis to share the crawl"
          + " through, and the crawl's name there");
    }
    if (out.append && shared.redis == null) {
      throw new UserError(ExitCodes.USAGE, "--append is for an agent of a shared crawl (--redis): a crawl of this"
          + " machine continues with '" + CommandName.get() + " resume DIR', which appends to its results");
    }
    if (shared.redis != null && out.job != null) {
      throw new UserError(ExitCodes.USAGE, "--job and --redis do not go together: a shared crawl keeps its state in"
          + " Redis");
    }
    outputs(settings).checkNotCrawlFiles(); // before the log file is opened
    FilterFit.check(settings, shared.redis == null);
    if (out.job != null) {
      OutputCheck.directory(out.job);
    }
    StatusLine status = StatusLine.of(terminal.err(),
        terminal.interactive() && logOptions.verbosity() != Logging.Verbosity.QUIET, clocks.ticker());
    Logging.configure(status, logOptions.logFile, logOptions.verbosity());
    int code;
    try {
      code = crawl(settings, status);
    } catch (RuntimeException e) {
      Logging.shutdown();
      throw e;
    }
    return Logging.finish(code);
  }

  private int crawl(CrawlSettings settings, StatusLine status) {
    UrlNormalizer normalizer = new UrlNormalizer(settings.traps().maxUrlLength(), settings.traps().stripSessionIds());
    boolean temporary = out.job == null;
    Path dir = shared.redis != null ? null : temporary ? defaultJobDir(clocks.wall()) : out.job;
    Path spool = SeedSpool.create(dir, clocks.wall());
    try {
      SeedFile.Read seedRead = SeedFile.read(seeds, terminal.in(), strictSeeds, normalizer, spool, log::warn);
      return crawl(settings, status, seedRead, dir, temporary);
    } finally {
      try {
        Files.deleteIfExists(spool); // moved into a new crawl directory, or read by a shared crawl's run
      } catch (IOException e) {
        log.warn("could not remove {}: {}", spool, Errors.reason(e));
      }
    }
  }

  private int crawl(CrawlSettings settings, StatusLine status, SeedFile.Read seedRead, Path dir, boolean temporary) {
    reports.checkWritable(); // every check passes before anything is created or emptied
    reports.checkWacz(settings);
    WarcOutput.checkWritable(settings);
    outputs(settings).checkDistinct();
    ResultsFile.checkAppend(out.append, out.overwrite);
    ResultsFile.checkNew(out.output, out.overwrite || out.append);
    if (shared.redis != null) {
      try (SharedHome home = SharedRun.open(shared.redis, shared.crawlName, settings, false, clocks)) {
        log.info("crawl starts: {} seeds from {}, results to {}, shared crawl '{}' in {}",
            String.format(Locale.ROOT, "%,d", seedRead.count()), seeds, out.output, shared.crawlName,
            SharedCrawls.shown(shared.redis));
        logSettings(settings, logOptions);
        return CrawlRun.run(new SharedRun(home), seedRead.seeds(), new RunOutput(settings,
            ResultsFile.forAgent(out.output, out.append, out.overwrite, terminal.out()), reports, status,
            logOptions.verbosity(), clocks));
      }
    }
    DirectoryHome crawlJob;
    try {
      crawlJob = DirectoryHome.create(dir, settings, seedRead.file(), out.output, clocks.wall());
      if (temporary) {
        crawlJob.removeWhenComplete();
      }
    } catch (CrawlJobException e) {
      throw new UserError(ExitCodes.JOB, CommandName.inHints(e.getMessage()));
    } catch (IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot create the crawl directory " + dir + ": " + Errors.reason(e));
    }
    log.info("crawl starts: {} seeds from {}, results to {}, crawl directory {}",
        String.format(Locale.ROOT, "%,d", seedRead.count()), seeds, out.output, dir);
    logSettings(settings, logOptions);
    CrawlRun.print("crawl directory: " + dir + (temporary ? " (removed when the crawl completes; an interrupted"
        + " crawl continues with '" + CommandName.get() + " resume " + dir + "')" : ""), status, logOptions.verbosity());
    if (settings.fetch().contact().isEmpty() && seedRead.anyPublic()) {
      // site owners should be able to reach whoever crawls them
      log.warn("{} is empty: the sites crawled cannot tell who is crawling them; set it to a URL or an e-mail address"
          + " (--set {}=...), which goes into the User-Agent", Setting.CONTACT.key(), Setting.CONTACT.key());
    }
    try {
      Seeds seedsInJob;
      try {
        seedsInJob = crawlJob.seeds();
      } catch (IOException e) {
        throw new UserError(ExitCodes.JOB, "cannot read the seeds of " + dir + ": " + Errors.reason(e));
      }
      ResultsFile results = ResultsFile.create(out.output, terminal.out());
      return CrawlRun.run(new DirectoryRun(crawlJob, temporary, settings), seedsInJob,
          new RunOutput(settings, results, reports, status, logOptions.verbosity(), clocks));
    } finally {
      try {
        crawlJob.close(); // the directory's lock (a completed temporary directory is gone already)
      } catch (IOException e) {
        log.warn("could not release the lock of {}: {}", dir, Errors.reason(e));
      }
    }
  }

  /**
   * The effective settings, with where each comes from, into the log file only: 55 lines are for reading
   * afterwards, and with {@code -v} the console says where they are instead.
   */
  static void logSettings(CrawlSettings settings, LogOptions logOptions) {
    log.info(Logging.FILE_ONLY, "settings:{}{}", System.lineSeparator(),
        String.join(System.lineSeparator(), settings.describe()));
    log.debug("settings: in {} ('--print-settings' prints them)", logOptions.logFile);
  }

  /** The files this crawl writes, for their checks; a new default crawl directory cannot hold any of them. */
  private OutputPaths outputs(CrawlSettings settings) {
    return reports.addTo(OutputPaths.of(out.job).file("-o", out.output).file("--log-file", logOptions.logFile))
        .folder("--warc", settings.warc().dir());
  }

  /** {@code ./sievecrawl-job-YYYYMMDD-HHMMSS} (UTC, now on {@code clock}), with a suffix if that exists already. */
  static Path defaultJobDir(Clock clock) {
    String stamp = JOB_STAMP.format(clock.instant().atZone(ZoneOffset.UTC));
    Path dir = Path.of("sievecrawl-job-" + stamp);
    for (int i = 2; Files.exists(dir); i++) {
      dir = Path.of("sievecrawl-job-" + stamp + "-" + i);
    }
    return dir;
  }
}

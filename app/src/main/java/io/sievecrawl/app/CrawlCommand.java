package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.CrawlSummary;
import io.sievecrawl.crawler.Crawler;
import io.sievecrawl.crawler.result.JsonLinesWriter;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sievecrawl crawl SEEDS}: the main job. */
@Command(name = "crawl", mixinStandardHelpOptions = true, versionProvider = SievecrawlCommand.VersionProvider.class,
    description = {"Crawls from the seed URLs in SEEDS and writes one JSON line per fetched page.",
        "Settings: defaults < config file (-c) < flags. The capacity warning in the log starts with"
            + " 'URL filter over capacity'."})
final class CrawlCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger("sievecrawl");

  private final Terminal terminal;

  @Parameters(index = "0", arity = "0..1", paramLabel = "SEEDS",
      description = "File of seed URLs, one per line (# comments); '-' reads standard input.")
  String seeds;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "crawl.jsonl",
      description = "JSON Lines results, one object per fetched URL; '-' for standard output (default: ${DEFAULT-VALUE}).")
  String output;

  @Option(names = "--strict-seeds", description = "Fail on an invalid seed line instead of skipping it with a warning.")
  boolean strictSeeds;

  @Option(names = "--print-settings", description = "Print the effective settings (and where each comes from) and exit.")
  boolean printSettings;

  @Mixin
  SettingsOptions settingsOptions;

  @Mixin
  LogOptions logOptions;

  CrawlCommand(Terminal terminal) {
    this.terminal = terminal;
  }

  @Override
  public Integer call() {
    CrawlSettings settings = settingsOptions.settings();
    if (printSettings) {
      settings.describe().forEach(terminal.out()::println);
      terminal.out().flush();
      return ExitCodes.OK;
    }
    if (seeds == null) {
      throw new UserError(ExitCodes.USAGE, "missing SEEDS: a file of seed URLs, or '-' for standard input");
    }
    StatusLine status = new StatusLine(terminal.err(), terminal.interactive() && logOptions.verbosity() != Logging.Verbosity.QUIET);
    Logging.configure(status, logOptions.logFile, logOptions.verbosity());
    try {
      return crawl(settings, status);
    } finally {
      Logging.shutdown();
    }
  }

  private int crawl(CrawlSettings settings, StatusLine status) {
    UrlNormalizer normalizer = new UrlNormalizer(settings.maxUrlLength(), settings.stripSessionIds());
    List<String> seedUrls = SeedFile.read(seeds, terminal.in(), strictSeeds, normalizer, log::warn);
    log.info("crawl starts: {} seeds from {}, results to {}; settings:{}{}", seedUrls.size(), seeds, output,
        System.lineSeparator(), String.join(System.lineSeparator(), settings.describe()));

    try (JsonLinesWriter writer = Outputs.open(output, terminal.out())) {
      Crawler crawler = Crawler.create(settings, writer, "filter.n in the config file, or -n/--expected-urls");
      StopSignals signals = StopSignals.install(() -> {
        log.warn("stopping: finishing fetches in flight (press Ctrl-C again to quit at once)");
        crawler.stop();
      });
      CrawlSummary summary;
      ProgressReporter progress = new ProgressReporter(crawler, status, status.isTerminal());
      try {
        summary = crawler.run(seedUrls);
      } finally {
        progress.close();
      }
      for (String line : SummaryReport.lines(summary)) {
        log.info(line);
        if (logOptions.verbosity() != Logging.Verbosity.QUIET) {
          status.println(line);
        }
      }
      return signals.received() ? ExitCodes.INTERRUPTED : ExitCodes.OK;
    } catch (IOException | UncheckedIOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write results to " + output + ": " + e.getMessage());
    }
  }
}

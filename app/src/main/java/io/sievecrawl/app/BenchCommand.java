package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.bench.CrawlBenchmark;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sievecrawl bench}: crawls a generated site on loopback and reports throughput. */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = SievecrawlCommand.VersionProvider.class,
    description = {"Serves a generated site on 127.0.0.1, crawls it and prints pages/s, MB/s and whether every page"
        + " was fetched exactly once.",
        "The site is one host, so each run lifts politeness (host concurrency = concurrency, no delay)."})
final class BenchCommand implements Callable<Integer> {
  private final Terminal terminal;

  @Option(names = "--pages", paramLabel = "N", defaultValue = "5000", description = "Pages in the site (default: ${DEFAULT-VALUE}).")
  int pages;

  @Option(names = "--fan-out", paramLabel = "N", defaultValue = "20",
      description = "Random links per page, besides the link to the next page (default: ${DEFAULT-VALUE}).")
  int fanOut;

  @Option(names = "--levels", paramLabel = "N[,N...]", split = ",", defaultValue = "8,32,128",
      description = "Concurrency levels to run, one crawl each (default: ${DEFAULT-VALUE}).")
  List<Integer> levels;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Also write the JSON Lines results of the last run to FILE ('-' for standard output).")
  String output;

  @Mixin
  SettingsOptions settingsOptions;

  @Mixin
  LogOptions logOptions;

  BenchCommand(Terminal terminal) {
    this.terminal = terminal;
  }

  @Override
  public Integer call() throws IOException {
    if (pages < 1 || pages > 10_000_000 || fanOut < 0 || fanOut > 1_000 || levels.stream().anyMatch(l -> l < 1 || l > 1_000)) {
      throw new UserError(ExitCodes.USAGE, "--pages must be 1..10000000, --fan-out 0..1000 and each level 1..1000");
    }
    CrawlSettings settings = settingsOptions.settings();
    StatusLine status = new StatusLine(terminal.err(), false);
    Logging.configure(status, logOptions.logFile, logOptions.verbosity());
    try {
      PrintStream out = terminal.out();
      out.printf(Locale.ROOT, "synthetic site: %d pages, %d random links each, on loopback; Java %s, %d cores%n",
          pages, fanOut, Runtime.version(), Runtime.getRuntime().availableProcessors());
      CrawlBenchmark.run(Math.min(pages, 1_000), fanOut, levels.get(0), settings); // warm-up
      out.printf("%-12s %8s %10s %8s %9s  %s%n", "concurrency", "pages", "pages/s", "MB/s", "seconds", "every page once");
      boolean allOnce = true;
      for (int i = 0; i < levels.size(); i++) {
        int level = levels.get(i);
        CrawlBenchmark.Run r;
        if (output != null && i == levels.size() - 1) {
          ResultsFile.checkNew(output, true);
          try (ResultsFile results = ResultsFile.create(output, terminal.out())) {
            r = CrawlBenchmark.run(pages, fanOut, level, settings, results.writer());
          }
        } else {
          r = CrawlBenchmark.run(pages, fanOut, level, settings);
        }
        allOnce &= r.exactlyOnce();
        out.printf(Locale.ROOT, "%-12d %8d %10.0f %8.1f %9.2f  %s%n", level, r.fetched(), r.pagesPerSecond(),
            r.megabytesPerSecond(), r.seconds(), r.exactlyOnce() ? "yes"
                : "NO: " + r.servedOnce() + " of " + r.pages() + " once, " + r.repeated() + " repeated");
        out.flush();
      }
      return allOnce ? ExitCodes.OK : ExitCodes.BENCH_MISMATCH;
    } finally {
      Logging.shutdown();
    }
  }
}

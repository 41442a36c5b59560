package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Values;
import io.sievecrawl.crawler.bench.BroadBenchmark;
import io.sievecrawl.crawler.bench.CrawlBenchmark;
import io.sievecrawl.crawler.bench.JvmThreadCpu;
import io.sievecrawl.crawler.bench.SyntheticSites;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sievecrawl bench}: crawls a generated site, or many, on loopback and reports throughput. */
@Command(name = "bench", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = SievecrawlCommand.VersionProvider.class,
    description = {"Serves a generated site on 127.0.0.1, crawls it and prints pages/s, MB/s and whether every page"
        + " was fetched exactly once.",
        "The site is one host, so each run lifts politeness (host concurrency = concurrency, no delay).",
        "With --sites N: a broad crawl of N sites on one server (their names pinned to it), politely (see --delay),"
            + " for --seconds; prints pages/s against the ideal of one page per site per delay, and pages per site."})
final class BenchCommand implements Callable<Integer> {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(BenchCommand.class);
  private final Terminal terminal;
  private final Clocks clocks;

  @Option(names = "--pages", paramLabel = "N", defaultValue = "5000", description = "Pages in the site (default: ${DEFAULT-VALUE}).")
  int pages;

  @Option(names = "--fan-out", paramLabel = "N", defaultValue = "20",
      description = "Random links per page, besides the link to the next page (default: ${DEFAULT-VALUE}).")
  int fanOut;

  @Option(names = "--levels", paramLabel = "N[,N...]", split = ",", defaultValue = "8,32,128",
      description = "Concurrency levels to run, one crawl each (default: ${DEFAULT-VALUE}).")
  List<Integer> levels;

  @Option(names = "--frontier", paramLabel = "memory|disk|both", defaultValue = "disk",
      description = "Frontier to crawl with: disk (as 'crawl' does), memory, or both in alternating runs with the"
          + " ratio of their median pages/s (default: ${DEFAULT-VALUE}).")
  String frontier;

  @Option(names = "--repeat", paramLabel = "N", defaultValue = "1",
      description = "Runs per level (and per frontier); medians are printed when more than one (default: ${DEFAULT-VALUE}).")
  int repeat;

  @Option(names = "--sites", paramLabel = "N",
      description = "A broad crawl of N generated sites at once instead of one site (see above).")
  Integer sites;

  @Option(names = "--pages-per-site", paramLabel = "N", defaultValue = "200",
      description = "With --sites: pages in each site (default: ${DEFAULT-VALUE}).")
  int pagesPerSite;

  @Option(names = "--seconds", paramLabel = "N", defaultValue = "120",
      description = "With --sites: how long each crawl runs (default: ${DEFAULT-VALUE}).")
  int seconds;

  @Option(names = "--serve", paramLabel = "DIR",
      description = "With --sites: only serve the sites, for crawlers started by hand (agents of a shared crawl,"
          + " other crawlers): writes DIR/seeds.txt and DIR/resolve.txt (pins for --resolve-file), then serves"
          + " from the first request for --seconds and prints pages per site.")
  Path serve;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Also write the JSON Lines results of the last run to FILE ('-' for standard output).")
  String output;

  @Mixin
  SettingsOptions settingsOptions;

  @Spec
  CommandSpec spec;

  @ArgGroup(validate = false, heading = "%nLog and console:%n", order = 100)
  LogOptions logOptions = new LogOptions();

  BenchCommand(Terminal terminal, Clocks clocks) {
    this.terminal = terminal;
    this.clocks = clocks;
  }

  @Override
  public Integer call() throws IOException {
    if (settingsOptions.wacz() != null) {
      throw new UserError(ExitCodes.USAGE, "--wacz packages a crawl's WARC files: it is for crawl, resume and join,"
          + " not bench");
    }
    if (sites != null) {
      return broad();
    }
    if (pages < 1 || pages > 10_000_000 || fanOut < 0 || fanOut > 1_000 || levels.stream().anyMatch(l -> l < 1 || l > 1_000)
        || repeat < 1 || repeat > 100) {
      throw new UserError(ExitCodes.USAGE,
          "--pages must be 1..10000000, --fan-out 0..1000, each level 1..1000 and --repeat 1..100");
    }
    List<CrawlBenchmark.FrontierKind> kinds = switch (frontier.toLowerCase(Locale.ROOT)) {
      case "memory" -> List.of(CrawlBenchmark.FrontierKind.MEMORY);
      case "disk" -> List.of(CrawlBenchmark.FrontierKind.DISK);
      case "both" -> List.of(CrawlBenchmark.FrontierKind.MEMORY, CrawlBenchmark.FrontierKind.DISK);
      default -> throw new UserError(ExitCodes.USAGE, "--frontier must be memory, disk or both, not '" + frontier + "'");
    };
    CrawlSettings settings = settingsOptions.settings();
    FilterFit.check(settings, true);
    StatusLine status = StatusLine.of(terminal.err(), false, clocks.ticker());
    Logging.configure(status, logOptions.logFile, logOptions.verbosity());
    CrawlCommand.logSettings(settings, logOptions);
    try {
      PrintStream out = LogTee.of(terminal.out(), log); // the table goes to the log file too
      out.printf(Locale.ROOT, "synthetic site: %,d pages, %,d random links each, on loopback%nJava %s, %d cores%n",
          pages, fanOut, Runtime.version(), Runtime.getRuntime().availableProcessors()); // two lines within 80 columns
      for (CrawlBenchmark.FrontierKind kind : kinds) { // warm-up
        CrawlBenchmark.run(Math.min(pages, 1_000), fanOut, levels.get(0), settings, r -> { }, kind);
      }
      out.printf("%-12s %-9s %8s %10s %8s %9s  %s%n", "concurrency", "frontier", "pages", "pages/s", "MB/s",
          "seconds", "every page once");
      boolean allOnce = true;
      for (int i = 0; i < levels.size(); i++) {
        int level = levels.get(i);
        Map<CrawlBenchmark.FrontierKind, List<Double>> rates = new EnumMap<>(CrawlBenchmark.FrontierKind.class);
        for (int round = 0; round < repeat; round++) {
          for (CrawlBenchmark.FrontierKind kind : kinds) { // alternating, so both see the same machine noise
            boolean last = i == levels.size() - 1 && round == repeat - 1 && kind == kinds.get(kinds.size() - 1);
            CrawlBenchmark.Run r = runOnce(level, settings, kind, last);
            allOnce &= r.exactlyOnce();
            rates.computeIfAbsent(kind, k -> new ArrayList<>()).add(r.pagesPerSecond());
            out.printf(Locale.ROOT, "%-,12d %-9s %,8d %,10.0f %,8.1f %,9.2f  %s%n", level,
                kind.name().toLowerCase(Locale.ROOT), r.fetched(), r.pagesPerSecond(), r.megabytesPerSecond(),
                r.seconds(), r.exactlyOnce() ? "yes"
                    : String.format(Locale.ROOT, "NO: %,d of %,d once, %,d repeated", r.servedOnce(), r.pages(),
                        r.repeated()));
            out.flush();
          }
        }
        if (repeat > 1 || kinds.size() > 1) {
          StringBuilder medians = new StringBuilder(String.format(Locale.ROOT, "  median pages/s at %,d:", level));
          rates.forEach((kind, list) -> medians.append(String.format(Locale.ROOT, " %s %,.0f",
              kind.name().toLowerCase(Locale.ROOT), median(list))));
          if (kinds.size() > 1) {
            medians.append(String.format(Locale.ROOT, "; disk / memory = %.2f",
                median(rates.get(CrawlBenchmark.FrontierKind.DISK)) / median(rates.get(CrawlBenchmark.FrontierKind.MEMORY))));
          }
          out.println(medians);
        }
      }
      return allOnce ? ExitCodes.OK : ExitCodes.BENCH_MISMATCH;
    } finally {
      Logging.shutdown();
    }
  }

  /** Broad mode: many sites at their polite rate, at each concurrency level in turn. */
  private int broad() throws IOException {
    if (sites < 1 || sites > 100_000 || pagesPerSite < 1 || pagesPerSite > 100_000 || seconds < 1 || seconds > 86_400
        || fanOut < 0 || fanOut > 1_000 || levels.stream().anyMatch(l -> l < 1 || l > 10_000) || repeat < 1
        || repeat > 100) {
      throw new UserError(ExitCodes.USAGE, "--sites must be 1..100000, --pages-per-site 1..100000, --seconds"
          + " 1..86400, --fan-out 0..1000, each level 1..10000 and --repeat 1..100");
    }
    CrawlSettings settings = settingsOptions.settings();
    if (serve != null) {
      return serveSites(settings.politeness().delay());
    }
    StatusLine status = StatusLine.of(terminal.err(), false, clocks.ticker());
    Logging.configure(status, logOptions.logFile, logOptions.verbosity());
    CrawlCommand.logSettings(settings, logOptions);
    try {
      PrintStream out = LogTee.of(terminal.out(), log); // the table goes to the log file too
      out.printf(Locale.ROOT, "broad crawl: %,d sites of %,d pages on one loopback server, delay %s, %d s; Java %s,"
              + " %d cores%n", sites, pagesPerSite, Values.formatDuration(settings.politeness().delay()), seconds,
          Runtime.version(), Runtime.getRuntime().availableProcessors());
      out.printf("%-12s %9s %9s %9s %7s %16s %14s %5s %7s %9s%n", "concurrency", "pages", "pages/s", "ideal",
          "share", "past seed", "median/site", "p10", "CPU s", "conn/page");
      // a broad crawl at the crawl's own concurrency unless told otherwise
      List<Integer> broadLevels = spec.commandLine().getParseResult().hasMatchedOption("--levels") ? levels
          : List.of(settings.crawl().concurrency());
      for (int level : broadLevels) {
        for (int round = 0; round < repeat; round++) {
          boolean last = level == broadLevels.get(broadLevels.size() - 1) && round == repeat - 1;
          BroadBenchmark.Run r = broadOnce(level, settings, last);
          out.printf(Locale.ROOT, "%-,12d %,9d %,9.1f %,9.1f %6.0f%% %16s %14s %,5d %,7.1f %9.3f%n", level,
              r.fetched(),
              r.pagesPerSecond(), r.idealPagesPerSecond(), r.idealPagesPerSecond() == 0 ? 0
                  : 100 * r.pagesPerSecond() / r.idealPagesPerSecond(),
              String.format(Locale.ROOT, "%,d of %,d", r.sitesPastSeed(), r.sites()),
              String.format(Locale.ROOT, "%,d (%,d)", r.medianPerSite(), r.idealPerSite()),
              r.p10PerSite(), r.cpuSeconds(), r.summary().connectionsPerPage());
          out.println(cpuPerPage(r));
          out.flush();
        }
      }
      return ExitCodes.OK;
    } finally {
      Logging.shutdown();
    }
  }

  /**
   * The run's CPU per page, server included, and the JIT compiler's and collector's seconds apart: a short run is
   * mostly the JIT's warm-up, a long one mostly the pages' own work.
   */
  static String cpuPerPage(BroadBenchmark.Run r) {
    long pages = Math.max(1, r.fetched());
    String line = String.format(Locale.ROOT, "  CPU %.3f ms/page (crawler and server)", 1000 * r.cpuSeconds() / pages);
    if (r.threads() == null) {
      return line;
    }
    JvmThreadCpu.Split t = r.threads();
    return line + String.format(Locale.ROOT, ": JIT %.2f s, GC %.2f s, rest %.3f ms/page", t.jitSeconds(),
        t.gcSeconds(), 1000 * (r.cpuSeconds() - t.jitSeconds() - t.gcSeconds()) / pages);
  }

  /**
   * Serves the sites for crawlers started elsewhere, from their first request for {@code --seconds}, and prints what
   * they fetched against the ideal for {@code delay} (the delay they were told to keep).
   */
  private int serveSites(java.time.Duration delay) throws IOException {
    PrintStream out = terminal.out();
    try (SyntheticSites served = SyntheticSites.start(sites, pagesPerSite, fanOut)) {
      Files.createDirectories(serve);
      Files.write(serve.resolve("seeds.txt"), served.rootUrls());
      Files.writeString(serve.resolve("resolve.txt"), served.pins().replace(' ', '\n') + "\n");
      out.printf(Locale.ROOT, "serving %,d sites of %,d pages; seeds in %s, pins in %s; waiting for the first"
          + " request%n", sites, pagesPerSite, serve.resolve("seeds.txt"), serve.resolve("resolve.txt"));
      out.flush();
      long first = served.awaitFirstRequest();
      long end = first + java.time.Duration.ofSeconds(seconds).toNanos();
      // on System.nanoTime(), as the sites' first request: a benchmark measures real time
      for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
        Thread.sleep(Math.min(1_000, java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(left) + 1));
      }
      int[] perSite = served.pagesServedPerSite();
      long pages = java.util.Arrays.stream(perSite).asLongStream().sum();
      int pastSeed = (int) java.util.Arrays.stream(perSite).filter(n -> n > 1).count();
      int[] spread = SyntheticSites.medianAndP10(perSite);
      double ideal = delay.isZero() ? 0 : sites * 1e9 / delay.toNanos();
      long idealPerSite = delay.isZero() ? pagesPerSite : Math.min(pagesPerSite, seconds * 1_000_000_000L / delay.toNanos());
      out.printf(Locale.ROOT, "%9s %9s %9s %7s %16s %14s %5s %9s%n", "pages", "pages/s", "ideal", "share", "past seed",
          "median/site", "p10", "repeated");
      out.printf(Locale.ROOT, "%,9d %,9.1f %,9.1f %6.0f%% %16s %14s %,5d %,9d%n", pages, pages / (double) seconds,
          ideal, ideal == 0 ? 0 : 100 * pages / seconds / ideal,
          String.format(Locale.ROOT, "%,d of %,d", pastSeed, sites),
          String.format(Locale.ROOT, "%,d (%,d)", spread[0], idealPerSite), spread[1], served.repeatedRequests());
      return ExitCodes.OK;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExitCodes.INTERRUPTED;
    }
  }

  private BroadBenchmark.Run broadOnce(int level, CrawlSettings settings, boolean writeOutput) throws IOException {
    java.time.Duration duration = java.time.Duration.ofSeconds(seconds);
    if (output == null || !writeOutput) {
      return BroadBenchmark.run(sites, pagesPerSite, fanOut, level, duration, settings, r -> { });
    }
    ResultsFile.checkNew(output, true);
    try (ResultsFile results = ResultsFile.create(output, terminal.out())) {
      return BroadBenchmark.run(sites, pagesPerSite, fanOut, level, duration, settings, results.writer());
    }
  }

  private CrawlBenchmark.Run runOnce(int level, CrawlSettings settings, CrawlBenchmark.FrontierKind kind,
      boolean writeOutput) throws IOException {
    if (output == null || !writeOutput) {
      return CrawlBenchmark.run(pages, fanOut, level, settings, r -> { }, kind);
    }
    ResultsFile.checkNew(output, true);
    try (ResultsFile results = ResultsFile.create(output, terminal.out())) {
      return CrawlBenchmark.run(pages, fanOut, level, settings, results.writer(), kind);
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}

package io.sievecrawl.crawler.bench;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.config.WarcSettings;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.Crawler;
import io.sievecrawl.crawler.CrawlerBuilder;
import io.sievecrawl.crawler.home.MemoryHome;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.crawler.warc.WarcArchive;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.disk.DiskFrontier;
import io.sievecrawl.sieve.disk.FrontierOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.stream.Stream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;

/**
 * Crawls a {@link SyntheticSite} on loopback at several concurrency levels and reports pages/s, MB/s and whether
 * every page was fetched exactly once.
 *
 * <p>Run: {@code mvn -q install -DskipTests && mvn -q -pl crawler-core -Pbench validate exec:exec -Dbench.args="5000 20 8 32 128"}
 * (pages, links per page, then concurrency levels); or {@code app/target/sievecrawl bench}.
 *
 * <p>The site is one host, so each run sets {@code politeness.host-concurrency} to the run's concurrency and
 * {@code politeness.delay} to 0: the figures measure the crawler, not its politeness.
 */
public final class CrawlBenchmark {

  /** Where a benchmark crawl keeps its frontier. */
  public enum FrontierKind {
    /** The in-memory sieve. */
    MEMORY,
    /** The disk frontier the command line crawls with, in a temporary directory deleted after the run. */
    DISK
  }

  /** One run's figures. */
  public record Run(int concurrency, int pages, long fetched, double seconds, long bytes, int servedOnce,
      int repeated, CrawlSummary summary, FrontierKind frontier) {

    public double pagesPerSecond() {
      return fetched / seconds;
    }

    public double megabytesPerSecond() {
      return bytes / 1e6 / seconds;
    }

    public boolean exactlyOnce() {
      return servedOnce == pages && repeated == 0;
    }
  }

  private CrawlBenchmark() {}

  /** Crawls a fresh site of {@code pages} pages with {@code settings}, overriding politeness as described above. */
  public static Run run(int pages, int fanOut, int concurrency, CrawlSettings settings) throws IOException {
    return run(pages, fanOut, concurrency, settings, result -> { }, FrontierKind.MEMORY);
  }

  /** As {@link #run(int, int, int, CrawlSettings)}, with the given frontier, handing every result to {@code sink}. */
  public static Run run(int pages, int fanOut, int concurrency, CrawlSettings settings, ResultSink sink,
      FrontierKind kind) throws IOException {
    Path dir = kind == FrontierKind.DISK ? Files.createTempDirectory("sievecrawl-bench") : null;
    try (SyntheticSite site = SyntheticSite.start(pages, fanOut)) {
      CrawlSettings tuned = settings.toBuilder()
          .set(Setting.CONCURRENCY, concurrency)
          .set(Setting.HOST_CONCURRENCY, concurrency)
          .set(Setting.DELAY, Duration.ZERO)
          .set(Setting.ADAPTIVE, false)
          .set(Setting.MAX_DEPTH, 1_000_000)
          .set(Setting.MAX_PAGES_PER_HOST, 0L)
          .build();
      CrawlerBuilder crawler = Crawler.builder(tuned, sink);
      Frontier<CrawlTask> frontier = null;
      if (dir != null) {
        frontier = DiskFrontier.open(dir, tuned.filter().expectedUrls(), tuned.filter().falsePositiveRate(),
            CrawlTask.CODEC, CrawlTask::key, CrawlTask::queue, FrontierOptions.defaults(Setting.FILTER_N.key())
                .withSyncInterval(tuned.frontier().syncInterval())
                .withCheckpointInterval(tuned.frontier().checkpointInterval()), Ticker.SYSTEM);
        crawler.home(MemoryHome.over(tuned, frontier));
      }
      // With warc.dir set, the pages are archived too: the cost of WARC output, measured.
      WarcSettings warcSettings = tuned.warc();
      WarcArchive warc = warcSettings.dir().isEmpty() ? null : WarcArchive.open(Path.of(warcSettings.dir()),
          warcSettings.prefix(), warcSettings.maxSize(), Map.of("software", List.of("sievecrawl bench")),
          Clock.systemUTC());
      if (warc != null) {
        crawler.recorder(warc);
      }
      long start = System.nanoTime(); // real time, as every benchmark here measures (see the package notes)
      CrawlSummary summary = crawler.build().run(List.of(site.rootUrl()));
      if (warc != null) {
        warc.close();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      if (frontier != null) {
        frontier.close();
      }
      return new Run(concurrency, pages, summary.fetched(), seconds, summary.bytes(), site.pagesServedOnce(),
          site.repeatedRequests(), summary, kind);
    } finally {
      if (dir != null) {
        try (Stream<Path> files = Files.walk(dir)) {
          for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
    }
  }

  public static void main(String[] args) throws IOException {
    int pages = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
    int fanOut = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    List<Integer> levels = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      levels.add(Integer.parseInt(args[i]));
    }
    if (levels.isEmpty()) {
      levels = List.of(8, 32, 128);
    }
    CrawlSettings settings = CrawlSettings.builder().set(Setting.FILTER_N, (long) pages * 2).build();
    PrintStream out = System.out;
    out.printf(Locale.ROOT, "synthetic site: %,d pages, %,d random links each, loopback; JVM %s, %d cores%n", pages,
        fanOut, Runtime.version(), Runtime.getRuntime().availableProcessors());
    run(Math.min(pages, 2_000), fanOut, levels.get(0), settings); // warm-up: JIT, class loading
    out.printf("%-12s %8s %10s %8s %10s %s%n", "concurrency", "pages", "pages/s", "MB/s", "seconds", "exactly once");
    for (int level : levels) {
      Run r = run(pages, fanOut, level, settings);
      out.printf(Locale.ROOT, "%-,12d %,8d %,10.0f %,8.1f %,10.2f %s%n", level, r.fetched(), r.pagesPerSecond(),
          r.megabytesPerSecond(), r.seconds(), r.exactlyOnce() ? "yes"
              : String.format(Locale.ROOT, "NO (%,d once, %,d repeated)", r.servedOnce(), r.repeated()));
    }
  }
}

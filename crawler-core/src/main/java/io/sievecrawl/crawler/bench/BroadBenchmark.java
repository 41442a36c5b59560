package io.sievecrawl.crawler.bench;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.Crawler;
import io.sievecrawl.crawler.home.MemoryHome;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.disk.DiskFrontier;
import io.sievecrawl.sieve.disk.FrontierOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A broad crawl: many {@link SyntheticSites} on one loopback server, their host names pinned to it, all seeded at
 * once and crawled politely for a fixed time on the disk frontier. The ideal is every site at its polite rate: one
 * page per site per {@code politeness.delay}. Reports pages/s against that ideal, how many sites got past their home
 * page, and the median and 10th-percentile pages per site.
 *
 * <p>Run: {@code app/target/sievecrawl bench --sites 1000 --delay 4s --seconds 120}.
 */
public final class BroadBenchmark {
  private BroadBenchmark() {}

  /**
   * One run's figures; CPU is the whole process's, the server's share included, and {@code threads} its JIT
   * compiler's and garbage collector's share (null where the threads cannot be read).
   */
  public record Run(int sites, int pagesPerSite, Duration delay, Duration duration, double seconds, long fetched,
      int sitesPastSeed,
      int medianPerSite, int p10PerSite, int repeated, double cpuSeconds, JvmThreadCpu.Split threads,
      CrawlSummary summary) {

    public double pagesPerSecond() {
      return fetched / seconds;
    }

    /** Pages/s if every site got a page every delay, or 0 without a delay (no politeness limit). */
    public double idealPagesPerSecond() {
      return delay.isZero() ? 0 : sites * 1e9 / delay.toNanos();
    }

    /** Pages per site if every site got a page every delay for the whole run (its first at the start). */
    public int idealPerSite() {
      return delay.isZero() ? pagesPerSite : (int) Math.min(pagesPerSite, duration.toNanos() / delay.toNanos());
    }
  }

  /**
   * Serves {@code sites} sites of {@code pagesPerSite} pages, crawls them for {@code duration} at {@code concurrency}
   * with {@code settings}' politeness, and hands every result to {@code sink}.
   */
  public static Run run(int sites, int pagesPerSite, int fanOut, int concurrency, Duration duration,
      CrawlSettings settings, ResultSink sink) throws IOException {
    Path dir = Files.createTempDirectory("sievecrawl-broad");
    try (SyntheticSites served = SyntheticSites.start(sites, pagesPerSite, fanOut)) {
      CrawlSettings tuned = settings.toBuilder()
          .set(Setting.CONCURRENCY, concurrency)
          .set(Setting.MAX_TIME, duration)
          .set(Setting.FILTER_N, Math.max(settings.filter().expectedUrls(), 2L * sites * pagesPerSite))
          .parse(Setting.RESOLVE, served.pins(), "bench")
          .build();
      long cpuBefore = processCpuNanos();
      JvmThreadCpu threadsBefore = JvmThreadCpu.read();
      long start = System.nanoTime(); // real time, as every benchmark here measures (see the package notes)
      CrawlSummary summary;
      try (DiskFrontier<CrawlTask> frontier = DiskFrontier.open(dir, tuned.filter().expectedUrls(),
          tuned.filter().falsePositiveRate(), CrawlTask.CODEC, CrawlTask::key, CrawlTask::queue,
          FrontierOptions.defaults(Setting.FILTER_N.key()).withSyncInterval(tuned.frontier().syncInterval())
              .withCheckpointInterval(tuned.frontier().checkpointInterval()), Ticker.SYSTEM)) {
        summary = Crawler.builder(tuned, sink).home(MemoryHome.over(tuned, frontier)).build().run(served.rootUrls());
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      double cpu = (processCpuNanos() - cpuBefore) / 1e9;
      JvmThreadCpu threadsAfter = JvmThreadCpu.read();
      JvmThreadCpu.Split threads = threadsBefore == null || threadsAfter == null ? null
          : threadsAfter.since(threadsBefore);
      int[] perSite = served.pagesServedPerSite();
      int pastSeed = 0;
      for (int pages : perSite) {
        pastSeed += pages > 1 ? 1 : 0;
      }
      int[] spread = SyntheticSites.medianAndP10(perSite);
      return new Run(sites, pagesPerSite, tuned.politeness().delay(), duration, seconds, summary.fetched(), pastSeed,
          spread[0], spread[1], served.repeatedRequests(), cpu, threads, summary);
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime() : -1;
  }
}

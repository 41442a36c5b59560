package io.sievecrawl.crawler.home;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.FilterSettings;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.sieve.Admission;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.Sieve;
import io.sievecrawl.sieve.disk.DiskFrontier;
import io.sievecrawl.sieve.disk.FrontierOptions;
import io.sievecrawl.sieve.redis.RedisCrawl;
import io.sievecrawl.sieve.redis.RedisFrontier;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The one place a crawl's frontier kind is chosen and built: on the heap ({@link MemoryHome}), on disk (a crawl
 * directory, a benchmark's), or in Redis ({@link SharedHome}). Each is sieved on the task's URL and queued by its
 * origin.
 */
public final class Frontiers {
  private Frontiers() {}

  /** An in-memory sieve sized from {@code filter.n} and {@code filter.p}, confirmed on the heap with filter.confirm. */
  public static Frontier<CrawlTask> inMemory(FilterSettings filter, String capacityHint) {
    Admission admission = filter.confirm()
        ? Admission.confirmedOnHeap(filter.expectedUrls(), filter.falsePositiveRate())
        : Admission.byFilter(BloomFilter.create(filter.expectedUrls(), filter.falsePositiveRate()));
    return Sieve.over(admission, CrawlTask::key, CrawlTask::queue, capacityHint);
  }

  /**
   * The disk frontier in {@code dir} (created there if it holds none), of {@code identity}'s n, p and exact store,
   * with the settings' sync and checkpoint intervals and filter growth.
   *
   * @param resized told of the new n and p when the filter grows
   * @throws io.sievecrawl.sieve.disk.FrontierCorruptException if its files are damaged or of another version
   */
  public static DiskFrontier<CrawlTask> onDisk(Path dir, CrawlIdentity identity, RunOptions run,
      FrontierOptions.ResizeListener resized) throws IOException {
    CrawlSettings settings = run.settings();
    FrontierOptions options = FrontierOptions.defaults(run.capacityHint())
        .withSyncInterval(settings.frontier().syncInterval())
        .withCheckpointInterval(settings.frontier().checkpointInterval())
        .withConfirmation(identity.confirm())
        .withGrowth(settings.filter().grow(), resized);
    return DiskFrontier.open(dir, identity.n(), identity.p(), CrawlTask.CODEC, CrawlTask::key, CrawlTask::queue,
        options, run.ticker());
  }

  /**
   * The frontier of the shared crawl {@code crawl}, its leases living {@code frontier.lease-ttl}.
   *
   * @throws io.sievecrawl.sieve.FrontierFailure if Redis cannot be reached
   */
  public static RedisFrontier<CrawlTask> inRedis(RedisCrawl crawl, RunOptions run) {
    return RedisFrontier.open(crawl, CrawlTask.CODEC, CrawlTask::key, CrawlTask::queue,
        run.settings().frontier().leaseTtl(), run.capacityHint());
  }
}

package io.sievecrawl.crawler;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.fetch.PageFetcher;
import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.crawler.robots.RobotsPolicy;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.url.InvalidUrlException;
import io.sievecrawl.crawler.url.UrlNormalizer;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.Sieve;
import io.sievecrawl.sieve.SieveStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crawls from seed URLs until every reachable URL in scope has been fetched once, a limit is reached, or
 * {@link #stop()} is called; hands one {@link io.sievecrawl.crawler.result.CrawlResult} per fetched URL to a
 * {@link ResultSink} and returns a {@link CrawlSummary}.
 *
 * <p>One crawler runs one crawl. {@link #run} blocks the calling thread; {@link #stop()} and {@link #progress()}
 * may be called from any other thread.
 */
public final class Crawler {
  /*
   * Threads: the caller of run(); crawl.concurrency worker virtual threads, each looping acquire -> process ->
   * complete; OkHttp's own threads (none for synchronous calls beyond the connection pool's cleaner).
   * Shared state: the Sieve (its own locks), the HostScheduler (one lock, never held during I/O), the
   * RobotsPolicy cache (its own lock; a robots.txt fetch happens outside it), CrawlStats (lock-free adders), the
   * ResultSink (thread-safe by contract). No lock is held while fetching.
   */
  private static final Logger log = LoggerFactory.getLogger(Crawler.class);
  static final int STOP_GRACE_SECONDS = 5;

  private final CrawlSettings settings;
  private final ResultSink sink;
  private final PageFetcher fetcher;
  private final Sieve<CrawlTask> sieve;
  private final HostScheduler<CrawlTask> scheduler;
  private final CrawlStats stats = new CrawlStats();
  private final UrlNormalizer normalizer;
  private final Queue<Throwable> workerFailures = new ConcurrentLinkedQueue<>();
  private final PageProcessor processor;
  private volatile long stopRequestedAt; // System.nanoTime() of the first stop(), 0 while none
  private volatile boolean pageLimitReached;
  private volatile IOException sinkFailure;

  private Crawler(CrawlSettings settings, ResultSink sink, BloomFilter filter, String capacityHint) {
    this.settings = settings;
    this.sink = sink;
    this.fetcher = new PageFetcher(settings);
    this.sieve = Sieve.over(filter, CrawlTask::url, capacityHint);
    this.scheduler = new HostScheduler<>(sieve, task -> UrlNormalizer.hostOf(task.url()),
        settings.hostConcurrency(), settings.delay());
    this.normalizer = new UrlNormalizer(settings.maxUrlLength(), settings.stripSessionIds());
    RobotsPolicy robots = settings.obeyRobots()
        ? new RobotsPolicy(fetcher.client(), settings.userAgent(), settings.maxCrawlDelay(), settings.robotsRetry(),
            settings.robotsCacheSize(), Clock.systemUTC())
        : null;
    LinkExtractor links = new LinkExtractor(normalizer, settings.honorNofollow(),
        RobotsPolicy.robotName(settings.userAgent()));
    this.processor = new PageProcessor(settings, fetcher, scheduler, robots, links, normalizer, sink, stats, this);
  }

  /**
   * A crawler with a fresh URL filter sized from the settings' {@code filter.n} and {@code filter.p}; the capacity
   * warning names {@code capacityHint} as the thing to raise (for example {@code "filter.n (--expected-urls)"}).
   */
  public static Crawler create(CrawlSettings settings, ResultSink sink, String capacityHint) {
    return new Crawler(settings, sink, BloomFilter.create(settings.expectedUrls(), settings.fpp()), capacityHint);
  }

  /** A crawler whose capacity warning names the {@code filter.n} setting. */
  public static Crawler create(CrawlSettings settings, ResultSink sink) {
    return create(settings, sink, "filter.n");
  }

  /**
   * Crawls from {@code seeds} (absolute http or https URLs) and returns when the crawl has ended and every result
   * has been handed to the sink and flushed.
   *
   * @throws IllegalArgumentException if a seed is not a valid http(s) URL, naming it
   * @throws UncheckedIOException if the sink fails; the crawl stops at the first failure
   */
  public CrawlSummary run(Collection<String> seeds) {
    List<String> normalized = new ArrayList<>();
    for (String seed : seeds) {
      try {
        normalized.add(normalizer.normalize(seed));
      } catch (InvalidUrlException e) {
        throw new IllegalArgumentException("invalid seed URL '" + seed + "': " + e.getMessage());
      }
    }
    processor.setScope(new ScopePolicy(settings, normalized));
    normalized.forEach(url -> scheduler.offer(CrawlTask.seed(url)));

    long start = System.nanoTime();
    ExecutorService workers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("fetcher-", 0)
        .uncaughtExceptionHandler((thread, e) -> {
          workerFailures.add(e);
          log.error("worker {} died", thread.getName(), e);
        }).factory());
    try {
      for (int i = 0; i < settings.concurrency(); i++) {
        workers.execute(this::workLoop);
      }
      workers.shutdown();
      awaitWorkers(workers);
    } finally {
      workers.shutdownNow();
    }
    long notFetched = scheduler.drain().size();
    try {
      sink.flush();
    } catch (IOException e) {
      sinkFailed(e);
    }
    if (sinkFailure != null) {
      fetcher.close();
      throw new UncheckedIOException("cannot write results: " + sinkFailure.getMessage(), sinkFailure);
    }
    fetcher.close();
    CrawlSummary.End end = stopRequestedAt != 0 ? CrawlSummary.End.STOPPED
        : pageLimitReached ? CrawlSummary.End.PAGE_LIMIT : CrawlSummary.End.COMPLETED;
    return new CrawlSummary(end, stats.fetched.sum(), stats.byStatusClass(), stats.byError(), stats.skipped(),
        stats.notAdmitted(), stats.retries.sum(), stats.bytes.sum(), notFetched, sieve.stats(),
        Duration.ofNanos(System.nanoTime() - start));
  }

  private void awaitWorkers(ExecutorService workers) {
    boolean interrupted = false;
    while (true) {
      try {
        if (workers.awaitTermination(100, TimeUnit.MILLISECONDS)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
        stop();
      }
      long stopAt = stopRequestedAt;
      if (stopAt != 0 && System.nanoTime() - stopAt > TimeUnit.SECONDS.toNanos(STOP_GRACE_SECONDS)) {
        fetcher.cancelAll(); // fetches still running after the grace period are aborted
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void workLoop() {
    while (true) {
      HostScheduler.Lease<CrawlTask> lease;
      try {
        lease = scheduler.acquire(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (lease == null) {
        if (stopRequestedAt != 0 || pageLimitReached || sieve.isFinished()) {
          return;
        }
        continue;
      }
      processor.process(lease);
    }
  }

  /**
   * Asks the crawl to end: no new fetch starts, fetches in flight get {@value #STOP_GRACE_SECONDS} seconds to
   * finish and are then aborted, results are flushed, and {@link #run} returns. Safe to call from any thread, and
   * more than once.
   */
  public void stop() {
    if (stopRequestedAt == 0) {
      stopRequestedAt = System.nanoTime() | 1;
      scheduler.stop();
    }
  }

  /** Called when the sink fails: the crawl stops, and {@link #run} throws once the workers are done. */
  void sinkFailed(IOException e) {
    if (sinkFailure == null) {
      sinkFailure = e;
      log.error("cannot write results, stopping the crawl: {}", e.getMessage());
    }
    stop();
  }

  /** Called by the processor when crawl.max-pages fetches have started. */
  void pageLimitReached() {
    if (!pageLimitReached) {
      pageLimitReached = true;
      scheduler.stop();
    }
  }

  boolean stopping() {
    return stopRequestedAt != 0 || pageLimitReached;
  }

  /** A live snapshot for a progress line. */
  public CrawlProgress progress() {
    SieveStats s = sieve.stats();
    return new CrawlProgress(stats.fetched.sum(), s.queued() + scheduler.waiting(), stats.inFlight.sum(),
        stats.errors.sum(), stats.bytes.sum(), s.fillRatio(), s.currentFpp());
  }

  /** Uncaught exceptions that killed worker threads (empty in a healthy crawl); for tests and diagnostics. */
  public List<Throwable> workerFailures() {
    return List.copyOf(workerFailures);
  }

  @Override
  public String toString() {
    return "Crawler[" + Objects.toString(progress()) + "]";
  }
}

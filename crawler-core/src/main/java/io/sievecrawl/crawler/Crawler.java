package io.sievecrawl.crawler;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.PolitenessSettings;
import io.sievecrawl.config.RequisiteSettings;
import io.sievecrawl.config.RobotsSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.config.Scope;
import io.sievecrawl.crawler.fetch.CaptureInterceptor;
import io.sievecrawl.crawler.fetch.PageFetcher;
import io.sievecrawl.crawler.home.CrawlHome;
import io.sievecrawl.crawler.home.MemoryHome;
import io.sievecrawl.crawler.lease.LeasePipeline;
import io.sievecrawl.crawler.report.CrawlProgress;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.report.CrawlTotals;
import io.sievecrawl.crawler.report.OriginStats;
import io.sievecrawl.crawler.report.SkipLog;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.crawler.robots.RobotsPolicy;
import io.sievecrawl.crawler.robots.RobotsStore;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.schedule.Politeness;
import io.sievecrawl.crawler.schedule.SchedulerSnapshot;
import io.sievecrawl.crawler.scope.ScopePolicy;
import io.sievecrawl.crawler.scope.ScopeSites;
import io.sievecrawl.crawler.scope.SharedScope;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.PerKeyBudget;
import io.sievecrawl.sieve.SieveStats;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crawls from seed URLs until every reachable URL in scope has been fetched once, a limit is reached, a failure
 * ends it, or {@link #stop()} is called; hands one {@link io.sievecrawl.crawler.result.CrawlResult} per fetched URL
 * to a {@link ResultSink} and returns a {@link CrawlSummary}.
 *
 * <p>The crawl lives in a {@link CrawlHome} ({@link CrawlerBuilder#home}), whose run has started: its frontier, the state
 * earlier runs left, where page budgets, sites in scope and visits are kept. By default a {@link MemoryHome}, on the
 * heap; a crawl directory or Redis for crawls that must outgrow the heap, survive a crash, or be shared. One crawler
 * runs one crawl run. {@link #run} blocks the calling thread; {@link #stop()}, {@link #progress()} and {@link #state()} may be called
 * from any other thread.
 */
public final class Crawler {
  /*
   * Threads: the caller of run(); crawl.concurrency worker virtual threads, each looping acquire -> process; OkHttp's
   * own threads (none for synchronous calls beyond the connection pool's cleaner). Shared state: the frontier (its
   * own locks), the HostScheduler (one lock, never held during network I/O), the RobotsPolicy cache (its own lock; a
   * robots.txt fetch happens outside it), CrawlStats (lock-free adders), the per-origin sketch (its monitor), the
   * ResultSink (thread-safe by contract), CrawlControl (volatile flags). Workers report to the crawl only through
   * CrawlControl; nothing calls back into this class.
   */
  private static final Logger log = LoggerFactory.getLogger(Crawler.class);
  static final int STOP_GRACE_SECONDS = 5;

  private final CrawlSettings settings;
  private final ResultSink sink;
  private final Frontier<CrawlTask> frontier;
  private final CrawlState before;
  private final PageFetcher fetcher;
  private final HostScheduler<CrawlTask> scheduler;
  private final CrawlStats stats = new CrawlStats();
  private final UrlNormalizer normalizer;
  private final CrawlControl control;
  private final Queue<Throwable> workerFailures = new ConcurrentLinkedQueue<>();
  private final PerKeyBudget pageBudget;
  private final ScopeSites scopeSites;
  private final SkipLog skipLog;
  private final VisitLog visitLog;
  private final RobotsStore robotsStore;
  private final OriginStats origins = new OriginStats();
  private final Ticker ticker; // the crawl's: politeness, retries, crawl.max-time, the stop's grace, elapsed time
  private final Clock clock; // the wall clock: fetch and WARC dates, cookie expiry, robots.txt retries
  private volatile ScopePolicy scope;
  private volatile RobotsPolicy robots;
  private volatile long startedAt;

  Crawler(CrawlerBuilder b) {
    this.settings = b.settings;
    this.ticker = b.ticker;
    this.clock = b.clock;
    this.sink = b.sink;
    CrawlHome home = b.home != null ? b.home : MemoryHome.of(settings);
    this.frontier = home.frontier();
    this.before = home.savedState();
    this.pageBudget = home.pageBudget();
    this.scopeSites = home.scopeSites();
    this.skipLog = b.skipLog;
    this.visitLog = home.visits();
    this.robotsStore = settings.robots().obey() ? home.robots() : RobotsStore.NONE;
    PolitenessSettings politeness = settings.politeness();
    this.scheduler = new HostScheduler<>(frontier, Politeness.of(politeness.hostConcurrency(), politeness.delay(),
        politeness.adaptive(), politeness.responseTimeFactor(), politeness.maxDelay()), ticker, b.leaseObserver);
    this.normalizer = new UrlNormalizer(settings.traps().maxUrlLength(), settings.traps().stripSessionIds());
    RequisiteSettings requisites = settings.requisites();
    this.control = new CrawlControl(settings.crawl().maxPages(), before.totals().pagesStarted(), ticker,
        scheduler::stop, requisites.fetch() ? scheduler::closeMainQueues : null); // requisites outlive the page limit
    // a public page may not lead into the local network: by a link under scope any, by a requisite unless host-bound
    boolean guardLocal = !settings.crawl().allowPrivateAddresses() && (settings.crawl().scope() == Scope.ANY
        || requisites.fetch() && requisites.scope() != Scope.HOST);
    PageFetcher.Builder fetching = PageFetcher.builder(settings, clock, ticker)
        .mayBeLocal(guardLocal ? this::mayBeLocal : host -> true).takesCredentials(this::takesCredentials)
        .payloadDigests(b.payloadDigests != null ? b.payloadDigests
            : b.recorder != null || visitLog != VisitLog.NONE);
    if (b.recorder != null) {
      long cap = Math.max(settings.fetch().maxBodySize(), requisites.fetch() ? requisites.maxBodySize() : 0);
      fetching.capture(new CaptureInterceptor(b.recorder, cap, control::fail, clock,
          settings.warc().keepCredentials()));
    }
    this.fetcher = fetching.build();
    fetcher.restoreCookies(before.cookies());
  }

  /** Whether {@code host} may be a local address: a seed's, or under crawl.scope domain, one of a seed's domain. */
  private boolean mayBeLocal(String host) {
    ScopePolicy current = scope;
    return current != null && current.mayBeLocal(host);
  }

  /** Whether requests to {@code origin} may carry the user's credentials (see {@link ScopePolicy#takesCredentials}). */
  private boolean takesCredentials(String origin) {
    ScopePolicy current = scope;
    return current != null && current.takesCredentials(origin);
  }

  /** A crawler in a {@link MemoryHome}: an in-memory frontier sized from {@code filter.n} and {@code filter.p}. */
  public static Crawler create(CrawlSettings settings, ResultSink sink) {
    return builder(settings, sink).build();
  }

  /** Collects a crawler's collaborators; only the settings and the sink are required. */
  public static CrawlerBuilder builder(CrawlSettings settings, ResultSink sink) {
    return new CrawlerBuilder(settings, sink);
  }

  /**
   * Crawls from {@code seeds} (absolute http or https URLs; on a resumed crawl, the same seeds again: the frontier
   * drops those it has seen) and returns when the run has ended and every result has been handed to the sink and
   * flushed.
   *
   * @throws IllegalArgumentException if a seed is not a valid http(s) URL, naming it
   */
  public CrawlSummary run(Collection<String> seeds) {
    return run(Seeds.of(seeds));
  }

  /**
   * Crawls from {@code seeds}, read twice: once for the sites in scope before the first fetch, and once to queue
   * them, while the crawl runs on a frontier of this process (a shared frontier gets them all before this agent
   * fetches, so that no agent finds it empty meanwhile).
   *
   * @throws IllegalArgumentException if a seed is not a valid http(s) URL, naming it
   * @throws UncheckedIOException if the seeds cannot be read
   */
  public CrawlSummary run(Seeds seeds) {
    SeedQueue seedQueue = new SeedQueue(settings, normalizer, frontier, scheduler, control, scopeSites);
    ScopePolicy scope = seedQueue.scopeOf(seeds, before.scopeSites());
    scope.addSites(scopeSites.load());
    scope.onNewSite(scopeSites::publish);
    this.scope = scope;
    SharedScope shared = scopeSites == ScopeSites.NONE ? null : new SharedScope(scopeSites, scope, ticker);
    if (shared != null) {
      shared.start();
    }
    SieveStats atStart = frontier.stats();
    long carriedOver = atStart.queued() + atStart.inFlight();
    RobotsSettings robotsSettings = settings.robots();
    RobotsPolicy robots = robotsSettings.obey()
        ? new RobotsPolicy(fetcher.clients(), origin -> !scope.coversSiteOf(Url.ofCanonical(origin + "/")),
            fetcher.calls(), settings.fetch().userAgentHeader(),
            robotsSettings.agentName(), settings.politeness().maxCrawlDelay(), robotsSettings.retryAfter(),
            robotsSettings.cacheMemory(), clock, robotsStore)
        : null;
    this.robots = robots;
    LeasePipeline pipeline = LeasePipeline.of(settings, new LeasePipeline.Shared(scheduler, fetcher, robots, scope,
        normalizer, pageBudget, sink, skipLog, visitLog, stats, origins, control, clock));

    long start = ticker.nanos();
    startedAt = start | 1; // 0 while the run has not started
    Thread seedFeeder = seedQueue.start(seeds);
    ExecutorService workers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("fetcher-", 0)
        .uncaughtExceptionHandler((thread, e) -> {
          workerFailures.add(e);
          log.error("worker {} died", thread.getName(), e);
          control.fail(e);
        }).factory());
    try {
      for (int i = 0; i < settings.crawl().concurrency(); i++) {
        workers.execute(() -> workLoop(pipeline, shared));
      }
      workers.shutdown();
      awaitWorkers(workers, start);
    } finally {
      workers.shutdownNow();
      if (shared != null) {
        shared.close();
      }
    }
    SeedQueue.joinQuietly(seedFeeder); // it stops at its next batch once the crawl is stopping
    try {
      sink.flush();
    } catch (IOException e) {
      control.fail(e);
    }
    if (robots != null) {
      robots.stopping();
    }
    fetcher.cancelAll(); // robots.txt fetches still under way have nobody left to wait for them
    fetcher.close();
    Map<String, String> givenUp = robots == null ? Map.of() : robots.givenUp();
    if (robots != null) {
      robots.close();
    }
    SieveStats atEnd = frontier.stats();
    Throwable failure = control.failure();
    CrawlSummary.End end = failure != null ? CrawlSummary.End.FAILED
        : control.pageLimitReached() ? CrawlSummary.End.PAGE_LIMIT
        : control.timeLimitReached() ? CrawlSummary.End.TIME_LIMIT
        : control.stopRequested() ? CrawlSummary.End.STOPPED : CrawlSummary.End.COMPLETED;
    Duration elapsed = Duration.ofNanos(ticker.nanos() - start);
    CrawlSummary run = summary(end, carriedOver, atEnd.admitted() - atStart.admitted(),
        atEnd.queued() + atEnd.inFlight(), atEnd, givenUp, elapsed, failure);
    CrawlTotals totals = before.totals().plus(run, control.pagesStarted());
    return summary(end, carriedOver, run.admitted(), run.notFetched(), atEnd, givenUp, elapsed, failure, totals);
  }

  private CrawlSummary summary(CrawlSummary.End end, long carriedOver, long admitted, long notFetched,
      SieveStats sieve, Map<String, String> givenUp, Duration elapsed, Throwable failure) {
    return summary(end, carriedOver, admitted, notFetched, sieve, givenUp, elapsed, failure, CrawlTotals.NONE);
  }

  private CrawlSummary summary(CrawlSummary.End end, long carriedOver, long admitted, long notFetched,
      SieveStats sieve, Map<String, String> givenUp, Duration elapsed, Throwable failure, CrawlTotals totals) {
    return new CrawlSummary(end, stats.fetched(), stats.requisites(), stats.responses(),
        stats.byStatusClass(), stats.byError(), stats.skipped(), stats.notAdmitted(), stats.visits(),
        stats.retries(), stats.bytes(), stats.truncated(), fetcher.connectionsOpened(),
        fetcher.tlsHandshakes(), carriedOver, admitted, notFetched, givenUp,
        sieve == null ? List.of() : origins.rows(), sieve, totals,
        elapsed, failure);
  }

  /** Waits for the workers to end; ends the crawl at its time limit, counted from {@code startTick}. */
  private void awaitWorkers(ExecutorService workers, long startTick) {
    long maxTime = settings.crawl().maxTime().toNanos();
    boolean interrupted = false;
    while (true) {
      if (maxTime > 0 && ticker.nanos() - startTick >= maxTime) {
        control.reachTimeLimit();
      }
      try {
        long poll = control.stopRequestedAt() == 0 ? 1_000 : 100; // stopping: watch the grace period closely
        if (workers.awaitTermination(poll, TimeUnit.MILLISECONDS)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
        stop();
      }
      long stopAt = control.stopRequestedAt();
      if (stopAt != 0 && ticker.nanos() - stopAt > TimeUnit.SECONDS.toNanos(STOP_GRACE_SECONDS)) {
        RobotsPolicy stoppingRobots = robots;
        if (stoppingRobots != null) {
          stoppingRobots.stopping();
        }
        fetcher.cancelAll(); // fetches and robots.txt reads still running after the grace period are aborted
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** @param shared the sites in scope other agents publish, {@code null} in a crawl of one process */
  private void workLoop(LeasePipeline pipeline, SharedScope shared) {
    while (true) {
      HostScheduler.Lease<CrawlTask> lease;
      try {
        lease = scheduler.acquire(10, TimeUnit.SECONDS); // a stop or the end of the crawl wakes it sooner
      } catch (InterruptedException e) {
        return;
      } catch (FrontierFailure e) {
        control.fail(e);
        return;
      }
      if (lease == null) {
        if (control.isStopping() || scheduler.isFinished()) {
          return;
        }
        continue;
      }
      if (shared != null) {
        shared.lookFor(lease.task().url());
      }
      pipeline.process(lease);
    }
  }

  /**
   * Asks the crawl to end: no new fetch starts, fetches in flight get {@value #STOP_GRACE_SECONDS} seconds to
   * finish and are then aborted (and left for a resumed crawl), results are flushed, and {@link #run} returns. Safe
   * to call from any thread, and more than once.
   */
  public void stop() {
    control.requestStop();
  }

  /** A live snapshot for a progress line. */
  public CrawlProgress progress() {
    SieveStats s = frontier.stats();
    SchedulerSnapshot atHand = scheduler.snapshot();
    long inFlight = stats.inFlight();
    long inLine = Math.max(0, s.queues() - atHand.active()); // about: an origin at hand may hold no waiting task
    long due = atHand.due() + inLine;
    RobotsPolicy robotsNow = robots;
    CrawlProgress.Origins origins = new CrawlProgress.Origins(due, atHand.waitingOnDelay(), atHand.heldBack(),
        robotsNow == null ? 0 : robotsNow.givenUpCount(),
        due == 0 && atHand.waitingOnDelay() > 0 && inFlight < settings.crawl().concurrency());
    return new CrawlProgress(before.totals().fetched() + stats.fetched(), s.queued(), inFlight,
        stats.errors(), stats.bytes(), s.fillRatio(), s.currentFpp(), origins);
  }

  /**
   * What a resumed crawl needs besides the frontier, as of now: the totals including this run so far, the hosts in
   * scope, the per-origin counts (the live sketch: serialize it, do not change it), the cookies kept.
   */
  public CrawlState state() {
    ScopePolicy current = scope;
    long start = startedAt;
    CrawlSummary soFar = summary(CrawlSummary.End.STOPPED, 0, 0, 0, null, Map.of(),
        start == 0 ? Duration.ZERO : Duration.ofNanos(ticker.nanos() - start), null);
    return new CrawlState(before.totals().plus(soFar, control.pagesStarted()),
        current == null ? before.scopeSites() : current.seedSites(), before.pagesPerOrigin(), fetcher.cookies());
  }

  /** Uncaught exceptions that killed worker threads (empty in a healthy crawl); for tests and diagnostics. */
  public List<Throwable> workerFailures() {
    return List.copyOf(workerFailures);
  }

  @Override
  public String toString() {
    return "Crawler[" + progress() + "]";
  }
}

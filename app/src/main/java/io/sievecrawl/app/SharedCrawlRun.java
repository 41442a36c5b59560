package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.CrawlSummary;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.Crawler;
import io.sievecrawl.crawler.ScopeSites;
import io.sievecrawl.crawler.Seeds;
import io.sievecrawl.crawler.warc.WarcArchive;
import io.sievecrawl.crawler.warc.WarcWriteException;
import io.sievecrawl.sieve.FailureLog;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.redis.KeptPerOrigin;
import io.sievecrawl.sieve.redis.RedisCrawl;
import io.sievecrawl.sieve.redis.RedisFrontier;
import io.sievecrawl.sieve.redis.SharedCrawlException;
import io.sievecrawl.sieve.redis.SharedCrawlRemoval;
import io.sievecrawl.sieve.redis.SharedState;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One agent's run in a crawl shared through Redis, for {@code crawl --redis} and {@code join}: works the shards it
 * leases until nothing is open anywhere, writing its own results file.
 */
final class SharedCrawlRun {
  /** Shards of a new shared crawl: origins are spread over them; agents lease them. */
  static final int SHARDS = 64;
  private static final Logger log = LoggerFactory.getLogger("sievecrawl");

  private SharedCrawlRun() {}

  /** How long {@code join} waits for a crawl that another agent has not started yet (agents started together). */
  static final Duration JOIN_WAIT = Duration.ofMinutes(1);

  /** Opens the crawl, or says why not, with the exit code. */
  static RedisCrawl open(String uri, String name, CrawlSettings settings, boolean join, Clocks clocks) {
    long started = clocks.ticker().nanos();
    while (true) {
      try {
        return join ? RedisCrawl.join(uri, name, clocks.ticker())
            : RedisCrawl.startOrJoin(uri, name, settings.filter().expectedUrls(),
                settings.filter().falsePositiveRate(), settings.filter().confirm(), SHARDS, settings.toConfigText(),
                clocks.wall(), clocks.ticker());
      } catch (SharedCrawlException e) {
        if (join && e.kind() == SharedCrawlException.Kind.NO_SUCH_CRAWL
            && clocks.ticker().nanos() - started < JOIN_WAIT.toNanos()) {
          sleep(500); // the agent that starts the crawl may come up a moment later
          continue;
        }
        throw new UserError(e.kind() == SharedCrawlException.Kind.MISMATCH ? ExitCodes.CONFIG : ExitCodes.SHARED,
            CommandName.inHints(e.getMessage()));
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError(ExitCodes.INTERRUPTED, "interrupted while waiting for the shared crawl to start");
    }
  }

  static int run(RedisCrawl crawl, CrawlSettings settings, Seeds seeds, ResultsFile results,
      ReportOptions reports, StatusLine status, Logging.Verbosity verbosity, Clocks clocks) {
    // Redis restarting: workers wait, and the crawl goes on
    crawl.setOutageGrace(settings.frontier().redisOutageGrace());
    RedisFrontier<CrawlTask> frontier;
    try {
      frontier = RedisFrontier.open(crawl, CrawlTask.CODEC, CrawlTask::key, CrawlTask::origin,
          settings.frontier().leaseTtl(), CrawlRun.CAPACITY_HINT);
    } catch (FrontierFailure e) {
      throw new UserError(ExitCodes.SHARED, e.getMessage());
    }
    SharedState shared = new SharedState(crawl);
    SharedCounters counters = new SharedCounters(new VerboseResults(results.writer()), shared);
    var skipLog = reports.skipLog();
    WarcArchive warc = WarcOutput.open(settings, crawl.name(), clocks.wall());
    Crawler.Builder builder = Crawler.builder(settings, counters).ticker(clocks.ticker()).clock(clocks.wall())
        .frontier(frontier).pageBudget(shared).skipLog(skipLog).scopeSites(new ScopeSites() {
          private final AtomicLong read = new AtomicLong(); // sites of the log read so far

          @Override
          public Collection<String> load() {
            long from = read.get();
            List<String> more = shared.scopeSitesFrom(from);
            read.accumulateAndGet(from + more.size(), Math::max); // two reads at once may return the same sites
            return more;
          }

          @Override
          public void publish(String site) {
            shared.publishScopeSite(site);
          }

          @Override
          public void publishAll(Collection<String> sites) {
            shared.publishScopeSites(sites);
          }
        });
    if (warc != null) {
      builder.recorder(warc);
    }
    builder.robotsStore(new RedisRobotsStore(new KeptPerOrigin(crawl, "robots"), clocks.wall()));
    Crawler crawler = builder.build();
    log.info("agent {} works the shared crawl '{}' in {}", crawl.agentId(), crawl.name(), crawl.uri());
    ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "agent-timers");
      t.setDaemon(true);
      return t;
    });
    timers.scheduleWithFixedDelay(() -> flushQuietly(counters), 1, 1, TimeUnit.SECONDS);
    long sync = settings.frontier().syncInterval().toMillis();
    FailureLog warcFailures = WarcOutput.syncFailures(warc, clocks.ticker());
    FailureLog resultFailures = new FailureLog(log, "cannot force " + results.name() + " to disk", clocks.ticker());
    timers.scheduleWithFixedDelay(() -> {
      WarcOutput.sync(warc, warcFailures); // first: a page's WARC record is written before its result line
      try {
        results.sync();
        resultFailures.succeeded();
      } catch (IOException e) {
        resultFailures.failed(Errors.reason(e));
      }
    }, sync, sync, TimeUnit.MILLISECONDS);
    StopSignals.install(again -> {
      log.warn("stopping this agent: finishing fetches in flight ({}); the other agents carry on with its shards",
          again);
      crawl.stopWaiting(); // a worker waiting out a Redis outage would hold the stop up
      crawler.stop();
    }, () -> {
      status.printOver("sievecrawl: this agent stopped at once; the other agents take over its pages in flight once"
          + " its leases expire");
      results.writer().whenIdle(() -> Runtime.getRuntime().halt(ExitCodes.INTERRUPTED), 1_000);
    });
    CrawlSummary summary;
    ProgressReporter progress = new ProgressReporter(crawler, status, status.isTerminal(), clocks.ticker());
    HeapCeiling heap = HeapCeiling.install();
    CrawlRun.print(PaceLine.of(settings.politeness()), status, verbosity);
    try {
      summary = crawler.run(seeds);
    } catch (java.io.UncheckedIOException e) {
      throw new UserError(ExitCodes.SEEDS, e.getMessage());
    } finally {
      heap.close();
      progress.close();
      timers.shutdown(); // not shutdownNow: an interrupt inside an fsync would break its file
      try {
        timers.awaitTermination(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    IOException closing = WarcOutput.close(warc);
    try {
      counters.flush();
    } catch (IOException | RuntimeException e) {
      log.warn("could not send the last counts to Redis: {}", e.getMessage());
    }
    try {
      results.close();
    } catch (IOException e) {
      closing = closing != null ? closing : e;
    }
    Map<String, Long> global = Map.of();
    Map<String, Long> globalFrontier = Map.of();
    try {
      global = shared.counters();
      globalFrontier = shared.frontierCounters();
    } catch (FrontierFailure e) {
      log.warn("could not read the crawl's global counters: {}", e.getMessage());
    }
    int agents = frontier.liveAgents();
    frontier.close();
    crawl.close();
    ReportOptions.close(skipLog);
    CrawlRun.report(SummaryReport.sharedLines(summary), summary, reports, status, verbosity, clocks.wall());
    print(String.format(Locale.ROOT, "  all agents:      %,d pages, %,d with a response, %s read; %,d URLs admitted,"
        + " %,d duplicates dropped, %,d still open; %,d agents live", global.getOrDefault("pages", 0L),
        global.getOrDefault("responses", 0L), io.sievecrawl.config.Values.formatSize(global.getOrDefault("bytes", 0L)),
        globalFrontier.getOrDefault("admitted", 0L), globalFrontier.getOrDefault("dropped", 0L),
        globalFrontier.getOrDefault("open", 0L), agents), status, verbosity);
    if (warc != null) {
      for (String line : WarcOutput.summary(warc, java.util.List.of(warc.dir()), null)) {
        print(line, status, verbosity);
      }
      if (closing == null) {
        reports.writeWacz(java.util.List.of(warc.dir()), io.sievecrawl.crawler.warc.WaczPackage.Description.DEFAULT,
            status, verbosity, clocks.wall()); // this agent's WARC files
      }
    }
    Throwable failure = summary.failure();
    if (failure instanceof FrontierFailure e) {
      throw new UserError(ExitCodes.SHARED, CommandName.inHints(e.getMessage()));
    }
    if (failure instanceof java.io.UncheckedIOException e) { // the seeds, read while the agent queued them
      throw new UserError(ExitCodes.SEEDS, e.getMessage());
    }
    if (failure instanceof WarcWriteException e) {
      throw new UserError(ExitCodes.OUTPUT, e.getMessage() + "; the agent's unfinished pages go to the other"
          + " agents");
    }
    if (failure instanceof IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write results to " + results.name() + ": " + Errors.reason(e));
    }
    io.lettuce.core.RedisException redis = redisCause(failure);
    if (redis != null) { // from a call besides the frontier's: the shared counters, the scope's sites
      throw new UserError(ExitCodes.SHARED, CommandName.inHints(RedisCrawl.failure(crawl.uri(), redis).getMessage()));
    }
    if (failure != null) {
      throw new UserError(ExitCodes.INTERNAL, "the agent failed: " + failure + "; its unfinished pages go to the"
          + " other agents");
    }
    if (closing != null) {
      throw new UserError(ExitCodes.OUTPUT, "cannot finish writing " + results.name() + " or the WARC files: "
          + Errors.reason(closing));
    }
    if (summary.end() == CrawlSummary.End.COMPLETED && global.getOrDefault("responses", 0L) == 0
        && globalFrontier.getOrDefault("admitted", 0L) > 0) {
      throw new UserError(ExitCodes.NOTHING_REACHED, "nothing was fetched by any agent: no server answered");
    }
    if (summary.end() == CrawlSummary.End.COMPLETED && globalFrontier.getOrDefault("open", 1L) <= 0) {
      print(CommandName.inHints("the shared crawl stays in Redis until removed with '" + SharedCrawlRemoval.command(
          crawl.uri(), crawl.name()) + "'"), status, verbosity);
    }
    return summary.end() == CrawlSummary.End.STOPPED ? ExitCodes.INTERRUPTED : ExitCodes.OK;
  }

  /** The Redis failure in {@code failure}'s causes, or null. */
  private static io.lettuce.core.RedisException redisCause(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof io.lettuce.core.RedisException redis) {
        return redis;
      }
    }
    return null;
  }

  private static void print(String line, StatusLine status, Logging.Verbosity verbosity) {
    CrawlRun.print(line, status, verbosity);
  }

  private interface Action {
    void run() throws IOException;
  }

  /**
   * Sends the counts gathered; Redis failing is the frontier's to report (a failure there ends the agent), not a
   * warning here every second until the agent has ended.
   */
  private static void flushQuietly(SharedCounters counters) {
    try {
      counters.flush();
    } catch (FrontierFailure e) {
      log.debug("{}", e.getMessage());
    } catch (IOException | RuntimeException e) {
      log.warn("{}", e.getMessage());
    }
  }

  private static void quietly(Action action) {
    try {
      action.run();
    } catch (IOException | RuntimeException e) {
      log.warn("{}", e.getMessage());
    }
  }
}

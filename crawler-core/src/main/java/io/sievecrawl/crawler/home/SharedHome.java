package io.sievecrawl.crawler.home;

import io.sievecrawl.crawler.CrawlState;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.crawler.robots.RobotsStore;
import io.sievecrawl.crawler.scope.ScopeSites;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.PerKeyBudget;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.redis.KeptPerOrigin;
import io.sievecrawl.sieve.redis.RedisCrawl;
import io.sievecrawl.sieve.redis.RedisFrontier;
import io.sievecrawl.sieve.redis.SharedState;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A crawl shared by several agents through Redis: its frontier, page budget and sites in scope live there; each
 * agent's totals stay with the agent (its own results file and summary), so a run starts from a fresh state.
 */
public final class SharedHome implements CrawlHome {
  private static final Logger log = LoggerFactory.getLogger(SharedHome.class);
  private static final Duration END_POLL = Duration.ofMillis(100); // between reads of the live agents at the end
  private final RedisCrawl crawl;
  private final SharedState shared;
  private final ScopeSites scopeSites;
  private RedisFrontier<CrawlTask> frontier;
  private SharedCounters counters; // this run's, once its sink is made
  private Duration leaseTtl = Duration.ofSeconds(10); // the run's, once it starts
  private Ticker ticker = Ticker.SYSTEM; // the run's, once it starts
  private volatile boolean stopWaiting; // the agent is stopping: wait for nothing more

  /** Waits between reads of the live agents at the end ({@link #countsAtEnd}); tests end agents meanwhile. */
  interface Pause {
    Pause SLEEP = d -> Thread.sleep(d.toMillis());

    void pause(Duration d) throws InterruptedException;
  }

  /**
   * The crawl's counters summed over every agent (pages, responses, bytes, ...) and its frontier's (admitted, dropped,
   * open), with the number of other agents still running when they were read: while any is, the counts are a partial
   * view (an agent sends its counts every second, and its last ones as it ends).
   */
  public record AllAgents(Map<String, Long> counters, Map<String, Long> frontier, int othersRunning) {}

  private SharedHome(RedisCrawl crawl) {
    this.crawl = crawl;
    this.shared = new SharedState(crawl);
    this.scopeSites = new SharedScopeSites(shared);
  }

  /** The home of the shared crawl {@code crawl}, which it closes; see {@link SharedCrawls} to start or join one. */
  public static SharedHome of(RedisCrawl crawl) {
    return new SharedHome(Objects.requireNonNull(crawl, "crawl"));
  }

  @Override
  public CrawlIdentity identity() {
    return new CrawlIdentity(crawl.n(), crawl.p(), crawl.confirmed(), 0);
  }

  @Override
  public String where() {
    return "'" + crawl.name() + "' in " + crawl.uri();
  }

  /**
   * Opens the shared frontier; a Redis restart within {@code frontier.redis-outage-grace} is waited out.
   *
   * @throws io.sievecrawl.sieve.FrontierFailure if Redis cannot be reached
   */
  @Override
  public synchronized void runStarts(RunOptions run) {
    crawl.setOutageGrace(run.settings().frontier().redisOutageGrace());
    leaseTtl = run.settings().frontier().leaseTtl();
    ticker = run.ticker();
    frontier = Frontiers.inRedis(crawl, run);
  }

  @Override
  public synchronized Frontier<CrawlTask> frontier() {
    if (frontier == null) {
      throw new IllegalStateException("no run of the shared crawl " + where() + " has started");
    }
    return frontier;
  }

  @Override
  public CrawlState savedState() {
    return CrawlState.fresh();
  }

  /**
   * A key per origin in Redis, expiring with its rules. The key's lifetime is reckoned on this machine's clock; the
   * rules' own expiry, kept in the value, is what the crawl checks.
   */
  @Override
  public RobotsStore robots() {
    return new RedisRobotsStore(new KeptPerOrigin(crawl, "robots"), Clock.systemUTC());
  }

  @Override
  public PerKeyBudget pageBudget() {
    return shared;
  }

  @Override
  public ScopeSites scopeSites() {
    return scopeSites;
  }

  /** The crawl's counters in Redis, which every agent adds its pages to. */
  public SharedState shared() {
    return shared;
  }

  /** The crawl's counters summed over every agent, by name. */
  public Map<String, Long> counters() {
    return shared.counters();
  }

  /** The shared frontier's counters: URLs admitted, duplicates dropped, URLs still open. */
  public Map<String, Long> frontierCounters() {
    return shared.frontierCounters();
  }

  /**
   * Every agent's counts once this run has ended ({@link #runEnded}): when the crawl completed, every other agent ends
   * soon too (each sees that nothing is open within a second), sending its last counts before it leaves the live
   * agents, so this waits for none to be left, up to {@code bound} (each read of Redis may take longer, up to the
   * outage grace). Otherwise, past the bound, once {@link #stopWaiting} is called or when interrupted (the thread's
   * interrupt status set again), the counts read are a partial view, and {@link AllAgents#othersRunning} says so.
   *
   * @throws io.sievecrawl.sieve.FrontierFailure if Redis cannot be reached
   */
  public AllAgents countsAtEnd(boolean completed, Duration bound) {
    return countsAtEnd(completed, bound, Pause.SLEEP);
  }

  AllAgents countsAtEnd(boolean completed, Duration bound, Pause pause) {
    Duration ttl;
    Ticker clock;
    synchronized (this) {
      ttl = leaseTtl;
      clock = ticker;
    }
    long deadline = clock.nanos() + bound.toNanos();
    int others = shared.otherAgentsLive(ttl);
    if (completed && others > 0) {
      log.info("the crawl is complete; waiting up to {} s for the last counts of {} other {}", bound.toSeconds(),
          others, others == 1 ? "agent" : "agents");
    }
    boolean interrupted = false;
    while (completed && others > 0 && !stopWaiting && clock.nanos() - deadline < 0) {
      try {
        pause.pause(END_POLL);
      } catch (InterruptedException e) {
        interrupted = true; // read what is there: Redis's client refuses an interrupted thread
        break;
      }
      others = shared.otherAgentsLive(ttl);
    }
    AllAgents all = new AllAgents(shared.counters(), shared.frontierCounters(), others);
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return all;
  }

  /** Also counts every result into the crawl's counters shared by the agents, sent every second. */
  @Override
  public synchronized ResultSink recording(ResultSink results) {
    counters = new SharedCounters(results, shared);
    return counters;
  }

  /**
   * Stops waiting out a Redis outage, and for the other agents' last counts at the end: a stopping agent must not be
   * held up by either.
   */
  public void stopWaiting() {
    stopWaiting = true;
    crawl.stopWaiting();
  }

  /** This agent's name in the crawl. */
  public String agentId() {
    return crawl.agentId();
  }

  /** The settings the crawl was started with, as a config file. */
  public String settingsText() {
    return crawl.settings();
  }

  public String name() {
    return crawl.name();
  }

  public String uri() {
    return crawl.uri();
  }

  /**
   * Sends the counts gathered to the crawl's shared counters; the frontier keeps itself in Redis, and an agent's
   * totals are its own. Redis failing is the frontier's to report (a failure there ends the agent), not this call's.
   */
  @Override
  public void save(CrawlState state) throws IOException {
    SharedCounters open;
    synchronized (this) {
      open = counters;
    }
    if (open == null) {
      return;
    }
    try {
      open.flush();
    } catch (FrontierFailure e) {
      log.debug("{}", e.getMessage());
    }
  }

  /**
   * Sends the last counts and hands this agent's shard leases back (its claims ahead put back; the claims in
   * flight stay for the next owner of their shards).
   */
  @Override
  public void runEnded(CrawlSummary.End end, CrawlState state) {
    SharedCounters open;
    RedisFrontier<CrawlTask> ending;
    synchronized (this) {
      open = counters;
      ending = frontier;
    }
    try {
      if (open != null) {
        open.send();
      }
    } catch (RuntimeException e) {
      log.warn("could not send the last counts to Redis: {}", e.getMessage());
    }
    if (ending != null) {
      synchronized (this) {
        frontier = null;
      }
      ending.close();
    }
  }

  /** Hands this agent's shard leases back, its claims ahead put back, and closes the connection. */
  @Override
  public void close() {
    RedisFrontier<CrawlTask> open;
    synchronized (this) {
      open = frontier;
      frontier = null;
    }
    try {
      if (open != null) {
        open.close();
      }
    } finally {
      crawl.close();
    }
  }

  /** The sites in scope as the crawl's log in Redis holds them; each agent reads the log from where it left off. */
  private static final class SharedScopeSites implements ScopeSites {
    private final SharedState shared;
    private final AtomicLong read = new AtomicLong(); // sites of the log read so far

    SharedScopeSites(SharedState shared) {
      this.shared = shared;
    }

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
  }
}

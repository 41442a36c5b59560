package io.sievecrawl.crawler.scope;

import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.Ticker;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sites in scope of a shared crawl as the other agents publish them, read again after the crawl's start: every
 * few seconds, and at once when this agent is handed a URL of a site it has not heard of.
 *
 * <p>That last read is what keeps an agent that joins while another is still publishing its seeds' sites from taking
 * every link of such a site's pages for out of scope: an agent publishes a site before it queues the site's first
 * URL, so a read begun after the URL was handed out finds the site. An origin still out of scope after such a read
 * (its publication failed) is not looked for again, so it costs one read, not one per URL.
 */
public final class SharedScope implements AutoCloseable {
  /*
   * No lock is held while Redis is read: a read is a future that workers missing a site wait on (a virtual thread
   * waiting on a future frees its carrier; one blocked on a monitor would not). A worker starts a read only when no
   * read began after its miss, so concurrent misses share one read.
   */
  private static final Logger log = LoggerFactory.getLogger(SharedScope.class);
  private static final int REFRESH_SECONDS = 5;
  private static final int MAX_LOOKED_FOR = 10_000;

  /** One read of the shared sites: when it began, on the ticker, and whether it has ended well. */
  private record Read(long startedAt, CompletableFuture<Boolean> succeeded) {}

  private final ScopeSites sites;
  private final ScopePolicy scope;
  private final Ticker ticker;
  private final AtomicReference<Read> latest = new AtomicReference<>();
  private final Set<String> lookedFor = ConcurrentHashMap.newKeySet(); // origins missed, then read for
  private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "scope-refresh");
    t.setDaemon(true);
    return t;
  });

  public SharedScope(ScopeSites sites, ScopePolicy scope, Ticker ticker) {
    this.sites = sites;
    this.scope = scope;
    this.ticker = ticker;
  }

  /** Reads the sites every few seconds in the background: other agents' seed redirects add sites too. */
  public void start() {
    refresher.scheduleWithFixedDelay(() -> readSince(ticker.nanos()), REFRESH_SECONDS, REFRESH_SECONDS,
        TimeUnit.SECONDS);
  }

  /** Makes sure the site of {@code url}, handed to this agent, is known if any agent has published it. */
  public void lookFor(Url url) {
    if (scope.coversSiteOf(url) || lookedFor.contains(url.origin())) {
      return;
    }
    if (readSince(ticker.nanos()).succeeded().join()) {
      if (lookedFor.size() >= MAX_LOOKED_FOR) {
        lookedFor.clear();
      }
      lookedFor.add(url.origin());
    }
  }

  /** A read that began at {@code since} or later: one under way or done, else one started now and waited for. */
  private Read readSince(long since) {
    while (true) {
      Read last = latest.get();
      if (last != null && last.startedAt() - since >= 0) {
        return last;
      }
      Read mine = new Read(ticker.nanos(), new CompletableFuture<>());
      if (latest.compareAndSet(last, mine)) {
        mine.succeeded().complete(read());
        return mine;
      }
    }
  }

  private boolean read() {
    try {
      scope.addSites(sites.load());
      return true;
    } catch (RuntimeException e) {
      log.warn("could not read the sites in scope shared by other agents: {}", e.getMessage());
      return false;
    }
  }

  @Override
  public void close() {
    refresher.shutdownNow();
  }
}

package io.sievecrawl.crawler;

import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.Ticker;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sites in scope of a shared crawl as the other agents publish them, read again after the crawl's start: every
 * few seconds, and at once when this agent is handed a URL of a site it has not heard of.
 *
 * <p>That last read is what keeps an agent that joins while another is still publishing its seeds' sites from taking
 * every link of such a site's pages for out of scope: an agent publishes a site before it queues the site's first
 * URL, so a read begun after the URL was handed out finds the site. A site still unknown after such a read (its
 * publication failed) is not looked for again, so it costs one read, not one per URL.
 */
final class SharedScope implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SharedScope.class);
  private static final int REFRESH_SECONDS = 5;
  private static final int MAX_LOOKED_FOR = 10_000;

  private final ScopeSites sites;
  private final ScopePolicy scope;
  private final Ticker ticker;
  private final Set<String> lookedFor = ConcurrentHashMap.newKeySet(); // sites missed, then read for
  private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "scope-refresh");
    t.setDaemon(true);
    return t;
  });
  private long lastReadStart; // guarded by this; the ticker's time a read began
  private boolean readOnce; // guarded by this

  SharedScope(ScopeSites sites, ScopePolicy scope, Ticker ticker) {
    this.sites = sites;
    this.scope = scope;
    this.ticker = ticker;
  }

  /** Reads the sites every few seconds in the background: other agents' seed redirects add sites too. */
  void start() {
    refresher.scheduleWithFixedDelay(this::read, REFRESH_SECONDS, REFRESH_SECONDS, TimeUnit.SECONDS);
  }

  /** Makes sure the site of {@code url}, handed to this agent, is known if any agent has published it. */
  void lookFor(Url url) {
    if (scope.rejection(url, 0) != ScopePolicy.Reason.HOST || lookedFor.contains(url.origin())) {
      return;
    }
    long missedAt = ticker.nanos();
    synchronized (this) {
      if (!readOnce || lastReadStart - missedAt < 0) { // no read began since it was missed
        read();
      }
    }
    if (lookedFor.size() >= MAX_LOOKED_FOR) {
      lookedFor.clear();
    }
    lookedFor.add(url.origin());
  }

  private synchronized void read() {
    lastReadStart = ticker.nanos();
    readOnce = true;
    try {
      scope.addSites(sites.load());
    } catch (RuntimeException e) {
      log.warn("could not read the sites in scope shared by other agents: {}", e.getMessage());
    }
  }

  @Override
  public void close() {
    refresher.shutdownNow();
  }
}

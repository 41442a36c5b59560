package io.sievecrawl.crawler;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.scope.ScopePolicy;
import io.sievecrawl.crawler.scope.ScopeSites;
import io.sievecrawl.crawler.url.InvalidUrlException;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import io.sievecrawl.sieve.Frontier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A crawl's seeds on their way in: read once for the sites in scope (published to the other agents), then offered to
 * the frontier a thousand at a time, while the workers fetch on a frontier of this process.
 */
final class SeedQueue {
  private static final Logger log = LoggerFactory.getLogger(SeedQueue.class);
  private static final int SEED_BATCH = 1_000;

  private final CrawlSettings settings;
  private final UrlNormalizer normalizer;
  private final Frontier<CrawlTask> frontier;
  private final HostScheduler<CrawlTask> scheduler;
  private final CrawlControl control;
  private final ScopeSites scopeSites;

  SeedQueue(CrawlSettings settings, UrlNormalizer normalizer, Frontier<CrawlTask> frontier,
      HostScheduler<CrawlTask> scheduler, CrawlControl control, ScopeSites scopeSites) {
    this.settings = settings;
    this.normalizer = normalizer;
    this.frontier = frontier;
    this.scheduler = scheduler;
    this.control = control;
    this.scopeSites = scopeSites;
  }

  /**
   * The scope of the seeds' sites and {@code moreSeedSites} (those earlier runs brought in); publishes the seeds' sites to other agents
   * and warns when there are seeds and none matches {@code crawl.include} (an agent that joins has none).
   */
  ScopePolicy scopeOf(Seeds seeds, Collection<String> moreSeedSites) {
    ScopePolicy scope = new ScopePolicy(settings, List.of(), moreSeedSites);
    boolean[] anySeed = {false};
    boolean[] anyIncluded = {false};
    List<String> newSites = new ArrayList<>(); // published a thousand at a time: one round trip each to Redis
    try {
      seeds.forEach(seed -> {
        Url url = seedUrl(seed, seeds.normalized());
        if (scope.addSeed(url)) {
          newSites.add(ScopePolicy.siteOf(url));
          if (newSites.size() == SEED_BATCH) {
            scopeSites.publishAll(newSites);
            newSites.clear();
          }
        }
        anySeed[0] = true;
        anyIncluded[0] |= scope.included(url);
      });
      scopeSites.publishAll(newSites);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the seeds: " + e.getMessage(), e);
    }
    if (anySeed[0] && !anyIncluded[0]) {
      log.warn("no seed matches {} ({}): the seeds are fetched, but of the links found only those it matches; to"
          + " crawl a part of a site, start from a page in it", Setting.INCLUDE.key(),
          settings.crawl().include().stream().map(Object::toString).collect(Collectors.joining(", ")));
    }
    return scope;
  }

  /**
   * Queues the seeds: on a frontier of this process in a thread of their own while the workers fetch (returned, to
   * join), on a shared one before any fetch (returns null).
   */
  Thread start(Seeds seeds) {
    if (seeds.queuedBeforeFetching() && !frontier.isShared()) {
      scheduler.producerStarts();
      try {
        queueSeeds(seeds);
      } finally {
        scheduler.producerDone();
      }
      return null;
    }
    if (frontier.isShared()) {
      if (queueSeeds(seeds) > 0 && control.failure() == null) {
        frontier.seedsQueued();
      }
      return null;
    }
    scheduler.producerStarts();
    return Thread.ofVirtual().name("seed-feeder").start(() -> {
      try {
        queueSeeds(seeds);
      } finally {
        scheduler.producerDone();
      }
    });
  }

  private Url seedUrl(String seed, boolean normalized) {
    if (normalized) {
      try {
        return Url.ofCanonical(seed); // split only: cheaper than normalizing it again
      } catch (IllegalArgumentException e) {
        // not of the canonical shape after all (a file edited by hand): normalized below, or refused
      }
    }
    try {
      return normalizer.get(seed);
    } catch (InvalidUrlException e) {
      throw new IllegalArgumentException("invalid seed URL '" + seed + "': " + e.getMessage());
    }
  }

  /**
   * Offers the seeds to the frontier a batch at a time (one round trip a batch to a shared one). On this process's
   * frontier a stop ends it (a resumed crawl offers them all again); a shared frontier gets every seed, as no resume
   * would offer the rest. Returns how many seeds it offered.
   */
  private long queueSeeds(Seeds seeds) {
    boolean untilStopped = !frontier.isShared();
    List<CrawlTask> batch = new ArrayList<>();
    long[] offered = {0};
    try {
      seeds.forEachVisit((seed, last) -> {
        if (untilStopped && control.isStopping()) {
          throw new SeedsStopped();
        }
        offered[0]++;
        Url url = seedUrl(seed, seeds.normalized());
        batch.add(last == null ? CrawlTask.seed(url) : CrawlTask.revisit(url, last));
        if (batch.size() == SEED_BATCH) {
          scheduler.offerAll(batch);
          batch.clear();
        }
      });
      scheduler.offerAll(batch);
    } catch (SeedsStopped e) {
      // the crawl ends before every seed was queued: a resumed crawl offers them all again
    } catch (IOException e) {
      control.fail(new UncheckedIOException("cannot read the seeds: " + e.getMessage(), e));
    } catch (Throwable e) { // an Error too: the crawl must not end as if every seed had been queued
      control.fail(e);
    }
    return offered[0];
  }

  /** Ends the read of the seeds when the crawl stops. */
  private static final class SeedsStopped extends RuntimeException {
    SeedsStopped() {
      super(null, null, false, false);
    }
  }

  /** Waits for {@code thread} (null: none) to end, keeping an interrupt for later. */
  static void joinQuietly(Thread thread) {
    if (thread == null) {
      return;
    }
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}

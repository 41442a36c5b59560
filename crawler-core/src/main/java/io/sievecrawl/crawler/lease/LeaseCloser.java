package io.sievecrawl.crawler.lease;

import io.sievecrawl.crawler.CrawlControl;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.VisitLog;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.report.OriginStats;
import io.sievecrawl.crawler.report.SkipLog;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.scope.RequisiteScope;
import io.sievecrawl.crawler.scope.ScopePolicy;
import io.sievecrawl.sieve.FrontierFailure;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a lease's {@link Outcome}, and the {@link Outcome.Interim}s that cannot wait for it: the one place a
 * worker changes what the crawl shares. An Outcome in this order: the URLs found pass scope and are offered to the
 * frontier, the record is written (and only then counted), and the lease ends in the scheduler, exactly once.
 *
 * <p>A lease whose record cannot be written, or whose URLs the frontier cannot take, stops the crawl and is left for
 * a resumed one; so does an {@link Error}. A {@link RuntimeException} (or a regular expression of crawl.include that
 * overflowed the stack) is one bad page: it is recorded as an internal error and the crawl goes on.
 */
final class LeaseCloser {
  private static final Logger log = LoggerFactory.getLogger(LeaseCloser.class);

  private final HostScheduler<CrawlTask> scheduler;
  private final ScopePolicy scope;
  private final RequisiteScope requisiteScope;
  private final ResultSink sink;
  private final CrawlStats stats;
  private final OriginStats origins;
  private final SkipLog skips;
  private final VisitLog visits;
  private final CrawlControl control;
  private final Clock clock;

  LeaseCloser(HostScheduler<CrawlTask> scheduler, ScopePolicy scope, RequisiteScope requisiteScope, ResultSink sink,
      CrawlStats stats, OriginStats origins, SkipLog skips, VisitLog visits, CrawlControl control, Clock clock) {
    this.visits = visits;
    this.scheduler = scheduler;
    this.scope = scope;
    this.requisiteScope = requisiteScope;
    this.sink = sink;
    this.stats = stats;
    this.origins = origins;
    this.skips = skips;
    this.control = control;
    this.clock = clock;
  }

  /** Ends {@code lease} as {@code outcome} says, once, whatever fails on the way. */
  void settle(HostScheduler.Lease<CrawlTask> lease, Outcome outcome) {
    Outcome ending = outcome;
    try {
      record(lease.task(), outcome);
    } catch (IOException | FrontierFailure e) {
      control.fail(e);
      ending = Outcome.abandon();
    } catch (StackOverflowError | RuntimeException e) {
      ending = recordInternalError(lease.task(), e);
    } catch (Error e) {
      control.fail(e); // OutOfMemoryError and the like: the crawl cannot go on safely; the page stays unacknowledged
      ending = Outcome.abandon();
    }
    end(lease, ending);
  }

  /** Offers what {@code outcome} found and writes its record: what a lease leaves before it ends. */
  private void record(CrawlTask task, Outcome outcome) throws IOException {
    switch (outcome) {
      case Outcome.Complete done -> write(task, offerFound(task, done), null);
      case Outcome.Redirect redirect -> {
        follow(task, redirect.target());
        write(task, redirect.result(), null);
      }
      case Outcome.Skipped skipped -> write(task, null, skipped.reason());
      case Outcome.GivenUp givenUp -> write(task, givenUp.result(), givenUp.reason());
      case Outcome.HandBack handBack -> { } // nothing to record: the task is done again
      case Outcome.Postpone postpone -> { }
      case Outcome.Abandon abandon -> { }
    }
  }

  /**
   * Carries out what a step settles before the lease's end: the origin's pace learns its response time and status,
   * a rest it asked for, its Crawl-delay; robots.txt's sitemaps are offered.
   */
  void settleNow(HostScheduler.Lease<CrawlTask> lease, Outcome.Interim interim) {
    String origin = lease.origin();
    switch (interim) {
      case Outcome.Interim.Responded responded ->
          scheduler.responded(origin, Duration.ofMillis(responded.response().millis()), responded.response().status());
      case Outcome.Interim.OriginPause pause -> scheduler.pause(origin, pause.pause());
      case Outcome.Interim.Robots robots -> {
        robots.crawlDelay().ifPresent(delay -> scheduler.setCrawlDelay(origin, delay));
        offerAll(robots.sitemaps());
      }
    }
  }

  /** Ends the wait of {@code origin}, postponed until its robots.txt came. */
  void wake(String origin) {
    scheduler.resume(origin);
  }

  /** Ends {@code lease} after a step failed with {@code e}: recorded as an internal error, the crawl goes on. */
  void settleInternalError(HostScheduler.Lease<CrawlTask> lease, Throwable e) {
    end(lease, recordInternalError(lease.task(), e));
  }

  /**
   * Records {@code task} as failed inside the crawler; how its lease ends: completed with that record, or abandoned
   * if even that fails.
   */
  private Outcome recordInternalError(CrawlTask task, Throwable e) {
    log.warn("internal error on {}: {}", task.url(), CrawlControl.describe(e));
    log.debug("internal error on {}", task.url(), e);
    try {
      CrawlResult result = internalError(task, e);
      write(task, result, null);
      return Outcome.complete(result);
    } catch (IOException | RuntimeException failure) {
      control.fail(failure);
      return Outcome.abandon();
    }
  }

  private CrawlResult internalError(CrawlTask task, Throwable e) {
    return new CrawlResult(task.key(), null, null, null, 0, false, task.depth(), task.referrer(), clock.instant(), 0,
        0, null, ErrorKind.INTERNAL, e.toString(), task.attempt() + 1);
  }

  /**
   * Offers the URLs found (a page's requisites with its links, in one batch, the requisites first: a URL both linked
   * and needed is fetched as a requisite); the record to write, with the page's links and their fate when it lists
   * them.
   */
  private CrawlResult offerFound(CrawlTask task, Outcome.Complete outcome) {
    offerAll(outcome.listed());
    Outcome.FoundLinks found = outcome.links();
    if (found.isEmpty()) {
      offerAll(outcome.requisites());
      return outcome.result();
    }
    for (String link : found.tooLong()) { // a trap guard's refusal, logged as it was written
      stats.notAdmitted(SkipReason.TOO_LONG);
      skips.skipped(link, task.key(), task.depth() + 1, SkipReason.TOO_LONG);
    }
    List<CrawlTask> batch = new ArrayList<>(outcome.requisites().size() + found.tasks().size());
    batch.addAll(outcome.requisites());
    batch.addAll(found.tasks());
    List<SkipReason> notFollowed = offerAll(batch).subList(outcome.requisites().size(), batch.size());
    CrawlResult result = outcome.result();
    if (result.links() == null) {
      return result;
    }
    List<CrawlResult.Link> links = new ArrayList<>(notFollowed.size() + found.tooLong().size());
    for (int i = 0; i < notFollowed.size(); i++) {
      SkipReason why = notFollowed.get(i);
      links.add(new CrawlResult.Link(found.tasks().get(i).key(), why == null ? null : why.wireName()));
    }
    for (String link : found.tooLong()) {
      links.add(new CrawlResult.Link(link, SkipReason.TOO_LONG.wireName()));
    }
    return result.withLinks(links);
  }

  /**
   * Offers the tasks in scope to the frontier as one batch (one round trip to a shared frontier); logs the rest and
   * those seen before as skipped. Why each task was not followed, in order, {@code null} for those admitted.
   */
  private List<SkipReason> offerAll(List<CrawlTask> tasks) {
    if (tasks.isEmpty()) {
      return List.of();
    }
    List<SkipReason> notFollowed = new ArrayList<>(tasks.size());
    List<CrawlTask> inScope = new ArrayList<>(tasks.size());
    List<Integer> at = new ArrayList<>(tasks.size());
    for (CrawlTask next : tasks) {
      SkipReason rejection = rejection(next);
      notFollowed.add(rejection);
      if (rejection == null) {
        at.add(notFollowed.size() - 1);
        inScope.add(next);
      }
    }
    BitSet admitted = scheduler.offerAll(inScope);
    for (int i = admitted.nextClearBit(0); i < inScope.size(); i = admitted.nextClearBit(i + 1)) {
      CrawlTask seen = inScope.get(i);
      skips.skipped(seen.key(), seen.referrer(), seen.depth(), SkipReason.SEEN);
      notFollowed.set(at.get(i), SkipReason.SEEN);
    }
    return notFollowed;
  }

  /** Offers a redirect's target through scope and the frontier; a seed's redirect brings its site into scope. */
  private void follow(CrawlTask task, CrawlTask target) {
    if (task.depth() == 0) {
      scope.addSeedRedirect(task.url(), target.url());
    }
    if (rejection(target) == null && !scheduler.offer(target)) {
      stats.notAdmitted(SkipReason.REDIRECT_TO_SEEN_URL);
      skips.skipped(target.key(), target.referrer(), target.depth(), SkipReason.SEEN);
    }
  }

  /**
   * Why {@code next} is out of scope ({@code out-of-scope-host}, ...; a requisite by the requisites' scope), counted
   * (a requisite's as {@code requisite-out-of-scope-...}) and logged; null if it is in.
   */
  private SkipReason rejection(CrawlTask next) {
    SkipReason why = next.requisite() ? requisiteScope.rejection(next.url(), next.referrer())
        : scope.rejection(next.url(), next.depth());
    if (why == null) {
      return null;
    }
    if (next.requisite()) {
      stats.requisiteNotAdmitted(why);
    } else {
      stats.notAdmitted(why);
    }
    skips.skipped(next.key(), next.referrer(), next.depth(), why);
    return why;
  }

  /**
   * Writes a record and counts it, only once written: a record the sink refused belongs to a page done again on
   * resume. A URL given up without a fetch is counted and logged as skipped, recorded or not, rather than fetched.
   */
  private void write(CrawlTask task, CrawlResult given, SkipReason skipReason) throws IOException {
    CrawlResult result = given != null && task.requisite() ? given.asRequisite() : given;
    if (result != null) {
      sink.accept(result);
    }
    if (skipReason == null && result != null) {
      visits.visited(task, result);
    } else if (skipReason != null && task.last() != null) {
      visits.kept(task); // not fetched this time (fresh, a budget, robots.txt unavailable): the next recrawl tries
    }
    if (skipReason != null) {
      stats.skip(skipReason);
      skips.skipped(task.key(), task.referrer(), task.depth(), skipReason);
    } else if (result != null) {
      stats.record(result);
      stats.visited(againstLastVisit(task, result));
      origins.fetched(task.origin(), result);
    }
  }

  /** What a fetch found against its URL's last visit, for a recrawl's summary ({@link CrawlStats#visited}). */
  private static String againstLastVisit(CrawlTask task, CrawlResult result) {
    Integer status = result.status();
    if (task.last() == null) {
      return "new";
    } else if (result.isRevisit()) {
      return "unchanged";
    } else if (status != null && (status == 404 || status == 410)) {
      return "gone";
    } else if (status == null || status >= 500) {
      return "failed";
    }
    return "changed";
  }

  /** Ends {@code lease} in the scheduler as {@code outcome} says. */
  private void end(HostScheduler.Lease<CrawlTask> lease, Outcome outcome) {
    try {
      switch (outcome) {
        case Outcome.Complete done -> scheduler.complete(lease);
        case Outcome.Redirect redirect -> scheduler.complete(lease);
        case Outcome.Skipped skipped -> scheduler.completeUnfetched(lease);
        case Outcome.GivenUp givenUp -> scheduler.completeUnfetched(lease);
        case Outcome.HandBack handBack -> scheduler.retryLater(lease, handBack.next(), handBack.after());
        case Outcome.Postpone postpone -> {
          scheduler.postpone(lease, postpone.after());
          if (postpone.readyNow().getAsBoolean()) {
            scheduler.resume(lease.origin()); // what it waits for came before the origin was postponed
          }
        }
        case Outcome.Abandon abandon -> scheduler.abandon(lease);
      }
    } catch (FrontierFailure e) {
      control.fail(e);
      scheduler.abandon(lease);
    }
  }
}

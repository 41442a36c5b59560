package io.sievecrawl.crawler;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.fetch.PageFetcher;
import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.html.PageLinks;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.crawler.robots.RobotsPolicy;
import io.sievecrawl.crawler.robots.RobotsVerdict;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.sitemap.SitemapReader;
import io.sievecrawl.crawler.url.ReferenceResolver;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import io.sievecrawl.sieve.PerKeyBudget;
import io.sievecrawl.sieve.FrontierFailure;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a worker does with one lease: robots.txt, budgets, the fetch, retries, the redirect or the links, the result,
 * and then the lease's end, exactly once: completed (acknowledged in the frontier), handed back for a retry, or
 * abandoned (left unacknowledged, so a resumed crawl does it again).
 *
 * <p>Data flows one way: the processor gets its collaborators at construction and tells the crawl nothing but
 * through {@link CrawlControl} (the page limit, a fatal failure).
 */
final class PageProcessor {
  private static final Logger log = LoggerFactory.getLogger(PageProcessor.class);
  /** How long an origin waits for its robots.txt at most; it is resumed as soon as robots.txt is known. */
  private static final Duration UNTIL_ROBOTS_ARRIVES = Duration.ofHours(1);
  /** Why a link longer than traps.max-url-length is not followed: a trap guard, as ScopePolicy's are. */
  private static final String TOO_LONG = "out-of-scope-trap";

  /** How a lease ends; UNFETCHED: completed without a request, so without spending the origin's delay. */
  private enum End { COMPLETE, UNFETCHED, HANDED_BACK, ABANDON }

  private final CrawlSettings settings;
  private final PageFetcher fetcher;
  private final HostScheduler<CrawlTask> scheduler;
  private final RobotsPolicy robots; // null when robots.txt is not obeyed
  private final LinkExtractor links;
  private final UrlNormalizer normalizer;
  private final ScopePolicy scope;
  private final ResultSink sink;
  private final CrawlStats stats;
  private final PerKeyBudget pagesPerOrigin;
  private final CrawlControl control;
  private final OriginWarnings failures = new OriginWarnings();
  private final OriginStats origins;
  private final SkipLog skips;

  PageProcessor(CrawlSettings settings, PageFetcher fetcher, HostScheduler<CrawlTask> scheduler, RobotsPolicy robots,
      LinkExtractor links, UrlNormalizer normalizer, ScopePolicy scope, ResultSink sink, CrawlStats stats,
      PerKeyBudget pagesPerOrigin, CrawlControl control, OriginStats origins, SkipLog skips) {
    this.settings = settings;
    this.fetcher = fetcher;
    this.scheduler = scheduler;
    this.robots = robots;
    this.links = links;
    this.normalizer = normalizer;
    this.scope = scope;
    this.sink = sink;
    this.stats = stats;
    this.pagesPerOrigin = pagesPerOrigin;
    this.control = control;
    this.origins = origins;
    this.skips = skips;
  }

  void process(HostScheduler.Lease<CrawlTask> lease) {
    CrawlTask task = lease.task();
    End end = End.ABANDON;
    stats.inFlight.increment();
    try {
      end = fetchAndRecord(lease, task);
    } catch (IOException | FrontierFailure e) {
      control.fail(e); // the results or the crawl directory cannot be written: the page is done again on resume
    } catch (StackOverflowError | RuntimeException e) {
      // One bad page must not end the crawl (a parser that recursed too deep included): record it and go on.
      log.warn("internal error on {}: {}", task.url(), CrawlControl.describe(e));
      log.debug("internal error on {}", task.url(), e);
      end = recordInternalError(task, e);
    } catch (Error e) {
      control.fail(e); // OutOfMemoryError and the like: the crawl cannot go on safely; the page stays unacknowledged
    } finally {
      stats.inFlight.decrement();
      finish(lease, end);
    }
  }

  private void finish(HostScheduler.Lease<CrawlTask> lease, End end) {
    try {
      switch (end) {
        case COMPLETE -> scheduler.complete(lease);
        case UNFETCHED -> scheduler.completeUnfetched(lease);
        case ABANDON -> scheduler.abandon(lease);
        case HANDED_BACK -> { }
      }
    } catch (FrontierFailure e) {
      control.fail(e);
      scheduler.abandon(lease);
    }
  }

  private End recordInternalError(CrawlTask task, Throwable e) {
    try {
      record(task, new CrawlResult(task.key(), null, null, null, 0, false, task.depth(), task.referrer(),
          Instant.now(), 0, 0, null, ErrorKind.INTERNAL, e.toString(), task.attempt() + 1));
      return End.COMPLETE;
    } catch (IOException failure) {
      control.fail(failure);
      return End.ABANDON;
    }
  }

  private End fetchAndRecord(HostScheduler.Lease<CrawlTask> lease, CrawlTask task) throws IOException {
    if (task.attempt() == 0) {
      End gated = passGates(lease, task);
      if (gated != null) {
        return gated;
      }
    }
    if (control.isStopping() || !scheduler.owns(lease)) {
      return End.ABANDON; // a shared crawl moved this origin's share to another agent: it does the task
    }
    // a sitemap's body is kept whatever its type, and so is a gzip file that says it is an XML document
    FetchResponse response = fetcher.fetch(task.key(), true, task.sitemap() || task.url().path().endsWith(".xml.gz"));
    if (control.failure() != null) {
      return End.ABANDON; // e.g. its WARC record could not be written: fetched again on resume, recorded then
    }
    scheduler.responded(lease.origin(), Duration.ofMillis(response.millis()), response.status());
    if (control.isStopping() && response.errorKind() != null) {
      return End.ABANDON; // most likely cut off by the stop: fetch it again on resume rather than record an error
    }
    if (response.isRetryable() && !control.isStopping()) {
      Duration wait = retryWait(task.attempt(), response.retryAfter());
      if (task.attempt() < settings.maxRetries() && wait != null) {
        stats.retries.increment();
        origins.paused(lease.origin(), wait);
        scheduler.retryLater(lease, task.retry(), wait);
        return End.HANDED_BACK;
      }
      if (response.retryAfter() != null) { // giving this URL up, but the origin still asked for a rest
        Duration cap = settings.maxRetryAfter();
        Duration pause = response.retryAfter().compareTo(cap) > 0 ? cap : response.retryAfter();
        origins.paused(lease.origin(), pause);
        scheduler.pause(lease.origin(), pause);
      }
    }
    Url location = locationOf(task, response); // resolved once, for the cookie checks and the record
    if (isCookieCheck(task, response, location)) {
      scheduler.retryLater(lease, task.againWithCookie(), Duration.ZERO);
      return End.HANDED_BACK;
    }
    if (response.errorKind() == ErrorKind.TLS) {
      failures.warnOnce(lease.origin(), response.error());
    }
    CrawlTask back = backWithCookies(task, response, location);
    if (back != null) {
      scheduler.retryLater(lease, back, Duration.ZERO);
      return End.HANDED_BACK;
    }
    record(task, resultOf(task, response, location));
    return End.COMPLETE;
  }

  /**
   * The URL that redirected here, to fetch again, when this page sends the crawler back to it holding cookies for
   * it: a consent or cookie-check page between a page and its visitors. That URL has passed the sieve already, so
   * the task takes this one's place in its origin's queue (the same origin only, so politeness holds), and the
   * check page gets no record of its own: its claim ends with the record of that URL's second fetch, one record a
   * claim as after a cookie check on the page itself. A second fetch is not sent back again, so a redirect loop
   * goes round once more at most and ends at a seen URL.
   */
  private CrawlTask backWithCookies(CrawlTask task, FetchResponse response, Url target) {
    if (!settings.cookies() || task.redirectHops() == 0 || task.attempt() > 0 || response.errorKind() != null
        || task.redirectHops() >= settings.maxRedirects()) {
      return null;
    }
    if (target == null || !target.toString().equals(task.referrer()) || !target.origin().equals(task.origin())
        || !fetcher.hasCookiesFor(target.toString())) {
      return null;
    }
    return task.backTo(target);
  }

  /**
   * Whether the response set a cookie and redirected to its own URL, as a site does that checks its visitors keep
   * cookies: the URL is fetched again with the cookie, as a browser would, within fetch.max-redirects. It is one URL,
   * so it gets one record, of its last fetch.
   */
  private boolean isCookieCheck(CrawlTask task, FetchResponse response, Url target) {
    if (!settings.cookies() || !response.setsCookie() || response.errorKind() != null
        || task.redirectHops() >= settings.maxRedirects()) {
      return false;
    }
    return target != null && target.toString().equals(task.key());
  }

  /** Where a redirect's Location leads, resolved against the page's URL; {@code null} if none or unusable. */
  private Url locationOf(CrawlTask task, FetchResponse response) {
    return response.isRedirect() && response.location() != null
        ? normalizer.resolverFor(task.key()).resolveOrNull(response.location()) : null;
  }

  /** robots.txt, the per-origin budget and the page limit; {@code null} when the task may be fetched. */
  private End passGates(HostScheduler.Lease<CrawlTask> lease, CrawlTask task) throws IOException {
    if (robots != null) {
      String origin = lease.origin();
      RobotsVerdict verdict = robots.verdict(task.url(), () -> scheduler.resume(origin));
      if (!verdict.sitemaps().isEmpty() && settings.followSitemaps()) {
        offerSitemaps(origin, verdict.sitemaps());
      }
      switch (verdict.decision()) {
        case DISALLOWED -> {
          origins.disallowed(origin);
          return skip(task, ErrorKind.ROBOTS_DISALLOWED, "disallowed by robots.txt", "robots");
        }
        case PENDING -> {
          // robots.txt is being fetched in the background: the origin waits for it, this worker moves on.
          scheduler.postpone(lease, UNTIL_ROBOTS_ARRIVES);
          if (robots.isSettled(task.url())) {
            scheduler.resume(origin); // it arrived before the origin was paused
          }
          return End.HANDED_BACK;
        }
        case RETRY_LATER -> {
          Duration wait = Duration.between(Instant.now(), verdict.retryAt());
          wait = wait.isNegative() ? Duration.ZERO : wait;
          origins.paused(origin, wait);
          scheduler.postpone(lease, wait);
          return End.HANDED_BACK;
        }
        case UNAVAILABLE -> {
          if (verdict.unreachable()) {
            origins.robots(origin, "unreachable: " + verdict.reason());
            return skip(task, ErrorKind.ORIGIN_UNREACHABLE, "origin unreachable: " + verdict.reason()
                + " (no request sent for this URL)", "origin-unreachable");
          }
          origins.robots(origin, "unavailable: " + verdict.reason());
          return skip(task, ErrorKind.ROBOTS_UNAVAILABLE, "origin given up: " + verdict.reason(),
              "robots-unavailable");
        }
        case ALLOWED -> {
          origins.robots(origin, "allowed");
          if (!verdict.crawlDelay().isZero()) {
            scheduler.setCrawlDelay(origin, verdict.crawlDelay());
          }
        }
      }
    }
    long budget = settings.maxPagesPerHost();
    if (budget > 0 && !pagesPerOrigin.tryCount(lease.origin(), budget)) {
      stats.skip("host-budget");
      skips.skipped(task.key(), task.referrer(), task.depth(), "host-budget");
      return End.UNFETCHED;
    }
    if (!control.tryStartPage()) {
      return End.ABANDON; // left in the frontier for a resumed crawl with a higher limit
    }
    return null;
  }

  /** Offers the sitemaps {@code origin}'s robots.txt lists. */
  private void offerSitemaps(String origin, List<String> sitemaps) {
    String robotsTxt = origin + "/robots.txt";
    ReferenceResolver resolver = normalizer.resolverFor(robotsTxt);
    List<CrawlTask> listed = new ArrayList<>(sitemaps.size());
    for (String sitemap : sitemaps) {
      Url url = resolver.resolveOrNull(sitemap);
      if (url == null) {
        stats.notAdmitted("invalid-url");
      } else {
        listed.add(CrawlTask.listedSitemap(url, robotsTxt));
      }
    }
    offerAll(listed);
  }

  /** Records a URL given up without a fetch (robots.txt), with its reason, and counts it as skipped. */
  private End skip(CrawlTask task, ErrorKind kind, String why, String reason) throws IOException {
    sink.accept(new CrawlResult(task.key(), null, null, null, 0, false, task.depth(), task.referrer(), Instant.now(), 0,
        0, null, kind, why, 0));
    stats.skip(reason);
    skips.skipped(task.key(), task.referrer(), task.depth(), reason);
    return End.UNFETCHED;
  }

  private CrawlResult resultOf(CrawlTask task, FetchResponse response, Url location) {
    ErrorKind errorKind = response.errorKind();
    String error = response.error();
    if (errorKind == null && response.isRetryable()) {
      errorKind = ErrorKind.RETRIES_EXHAUSTED;
      error = "HTTP " + response.status() + " after " + (task.attempt() + 1) + " attempts";
    }
    Url redirectTo = null;
    int outlinks = 0;
    String title = null;
    String text = null;
    boolean truncated = response.truncated(); // or, for a compressed sitemap, its decompression cut at the cap
    List<CrawlResult.Link> linksFound = null;
    if (errorKind == null && response.isRedirect()) {
      if (response.location() == null) {
        errorKind = ErrorKind.BAD_REDIRECT;
        error = "redirect without a Location header";
      } else {
        redirectTo = redirectTarget(task, response.location(), location);
        if (redirectTo == null) {
          errorKind = ErrorKind.BAD_REDIRECT;
          error = "unusable Location '" + response.location() + "'";
        } else if (task.redirectHops() >= settings.maxRedirects()) {
          errorKind = ErrorKind.TOO_MANY_REDIRECTS;
          error = "more than " + settings.maxRedirects() + " redirects";
        } else {
          if (task.depth() == 0) {
            scope.addSeedRedirect(task.url(), redirectTo);
          }
          follow(task.redirect(redirectTo));
        }
      }
    } else if (errorKind == null && task.sitemap() && response.status() / 100 == 2) {
      try {
        SitemapReader.Listing listing = SitemapReader.read(response.body(), response.contentType(), task.key());
        outlinks = offerListed(task, listing);
        truncated |= listing.truncated();
      } catch (SitemapReader.NotASitemapException e) {
        errorKind = ErrorKind.NOT_A_SITEMAP;
        error = e.getMessage();
      }
    } else if (errorKind == null && response.status() / 100 == 2 && mayListPages(task, response)) {
      try {
        SitemapReader.Listing listing = SitemapReader.read(response.body(), response.contentType(), task.key());
        outlinks = offerListed(task, listing);
        truncated |= listing.truncated();
      } catch (SitemapReader.NotASitemapException e) {
        // an XML document of another kind: a page without links, as any other non-HTML page
      }
    } else if ((errorKind == null || response.isCutOff()) && response.isHtml() && response.status() / 100 == 2) {
      // a page cut off on its last attempt still yields the links in its part received, as one cut at the size cap
      PageLinks page = links.extract(response.body(), response.charset(), task.key(), response.robotsTag(),
          settings.recordText());
      outlinks = page.found();
      title = page.title();
      text = page.text();
      List<Url> found = page.urls();
      if (page.overCap() > 0) {
        stats.notAdmitted("links-over-page-cap", page.overCap());
      }
      for (String link : page.tooLong()) { // a trap guard's refusal, logged as the page wrote it
        stats.notAdmitted(TOO_LONG);
        skips.skipped(link, task.key(), task.depth() + 1, TOO_LONG);
      }
      List<CrawlTask> next = new ArrayList<>(found.size());
      for (Url link : found) {
        next.add(task.link(link));
      }
      List<String> notFollowed = offerAll(next);
      if (settings.recordLinks()) {
        linksFound = new ArrayList<>(next.size() + page.tooLong().size());
        for (int i = 0; i < next.size(); i++) {
          linksFound.add(new CrawlResult.Link(next.get(i).key(), notFollowed.get(i)));
        }
        for (String link : page.tooLong()) {
          linksFound.add(new CrawlResult.Link(link, TOO_LONG));
        }
      }
    }
    return new CrawlResult(task.key(), response.status(), response.contentType(), title, response.bytes(),
        truncated, task.depth(), task.referrer(), response.startedAt(), response.millis(), outlinks,
        redirectTo == null ? null : redirectTo.toString(), errorKind, error, task.attempt() + 1, text,
        linksFound == null && settings.recordLinks() ? List.of() : linksFound);
  }

  /**
   * Whether a response that was not asked for as a sitemap may still be one, or a feed, to read the pages it lists
   * from: an XML document (or a gzip file named {@code .xml.gz}) that is a seed, or is linked with
   * robots.follow-sitemaps on. A seed that is a sitemap makes the pages it lists seeds of the crawl.
   */
  private boolean mayListPages(CrawlTask task, FetchResponse response) {
    boolean seed = task.referrer() == null;
    return !response.isHtml() && response.body().length > 0 && (seed || settings.followSitemaps())
        && (PageFetcher.isXml(response.contentType()) || task.url().path().endsWith(".xml.gz"));
  }

  /** Offers the URLs a sitemap or feed lists; their number, for the record's {@code outlinks}. */
  private int offerListed(CrawlTask task, SitemapReader.Listing listing) {
    if (listing.overCap() > 0) {
      stats.notAdmitted("links-over-page-cap", listing.overCap());
    }
    ReferenceResolver resolver = normalizer.resolverFor(task.key());
    List<CrawlTask> listed = new ArrayList<>(listing.urls().size());
    for (String entry : listing.urls()) {
      Url url = resolver.resolveOrNull(entry);
      if (url == null) {
        stats.notAdmitted("invalid-url");
      } else {
        listed.add(task.listed(url, listing.index()));
      }
    }
    offerAll(listed);
    return listing.urls().size() + listing.overCap();
  }

  /**
   * Where a redirect leads. One that leads back to this URL once its session id is removed (a site that puts the
   * session in the URL of a visitor without cookies: {@code /app/} to {@code /app/;jsessionid=...}) leads to the URL
   * as sent, as wget follows it: stripped, it would end at a seen URL and the page behind it would never be fetched.
   * That URL is fetched once; the links of its page lose their session ids as any others do.
   */
  private Url redirectTarget(CrawlTask task, String location, Url target) {
    if (target == null || !target.toString().equals(task.key())) {
      return target;
    }
    Url asSent = normalizer.keepingSessionIds().resolverFor(task.key()).resolveOrNull(location);
    return asSent != null && !asSent.toString().equals(task.key()) ? asSent : target;
  }

  /**
   * Offers the tasks in scope to the frontier as one batch (one round trip to a shared frontier); logs the rest and
   * those seen before as skipped.
   */
  private List<String> offerAll(List<CrawlTask> tasks) {
    List<String> notFollowed = new ArrayList<>(tasks.size());
    List<CrawlTask> inScope = new ArrayList<>(tasks.size());
    List<Integer> at = new ArrayList<>(tasks.size());
    for (CrawlTask next : tasks) {
      String rejection = scopeRejection(next);
      notFollowed.add(rejection);
      if (rejection == null) {
        at.add(notFollowed.size() - 1);
        inScope.add(next);
      }
    }
    BitSet admitted = scheduler.offerAll(inScope);
    for (int i = admitted.nextClearBit(0); i < inScope.size(); i = admitted.nextClearBit(i + 1)) {
      CrawlTask seen = inScope.get(i);
      skips.skipped(seen.key(), seen.referrer(), seen.depth(), "seen");
      notFollowed.set(at.get(i), "seen");
    }
    return notFollowed;
  }

  /** Offers a redirect target through scope and the frontier. */
  private void follow(CrawlTask next) {
    if (inScope(next) && !scheduler.offer(next)) {
      stats.notAdmitted("redirect-to-seen-url");
      skips.skipped(next.key(), next.referrer(), next.depth(), "seen");
    }
  }

  private boolean inScope(CrawlTask next) {
    return scopeRejection(next) == null;
  }

  /** Why {@code next} is out of scope ({@code out-of-scope-host}, ...), counted and logged; {@code null} if it is in. */
  private String scopeRejection(CrawlTask next) {
    ScopePolicy.Reason reason = scope.rejection(next.url(), next.depth());
    if (reason == null) {
      return null;
    }
    String why = "out-of-scope-" + reason.name().toLowerCase(Locale.ROOT);
    stats.notAdmitted(why);
    skips.skipped(next.key(), next.referrer(), next.depth(), why);
    return why;
  }

  /**
   * How long to wait before retry number {@code attempt + 1}: the server's Retry-After if it gave one (null, meaning
   * give up, if that is longer than fetch.max-retry-after), otherwise the backoff doubled per attempt with up to
   * 50% jitter.
   */
  private Duration retryWait(int attempt, Duration retryAfter) {
    if (retryAfter != null) {
      return retryAfter.compareTo(settings.maxRetryAfter()) > 0 ? null : retryAfter;
    }
    long base = settings.retryBackoff().toMillis() << Math.min(attempt, 20);
    return Duration.ofMillis(base + ThreadLocalRandom.current().nextLong(base / 2 + 1));
  }

  /** Writes the result of {@code task} and counts it; the sink writes it out before the lease is completed. */
  private void record(CrawlTask task, CrawlResult result) throws IOException {
    sink.accept(result);
    stats.record(result); // only once written: a result the sink refused belongs to a page done again on resume
    origins.fetched(task.origin(), result);
  }
}

package io.sievecrawl.crawler;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.fetch.ExchangeRecorder;
import io.sievecrawl.crawler.home.CrawlHome;
import io.sievecrawl.crawler.home.MemoryHome;
import io.sievecrawl.crawler.report.SkipLog;
import io.sievecrawl.crawler.result.ResultSink;
import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.sieve.Ticker;
import java.time.Clock;
import java.util.Objects;

/**
 * Collects a {@link Crawler}'s collaborators ({@link Crawler#builder}); only the settings and the sink are required.
 * The crawler wires them into its scheduler, fetcher and lease pipeline.
 */
public final class CrawlerBuilder {
  final CrawlSettings settings;
  final ResultSink sink;
  CrawlHome home;
  Ticker ticker = Ticker.SYSTEM;
  Clock clock = Clock.systemUTC();
  HostScheduler.LeaseObserver leaseObserver = HostScheduler.LeaseObserver.NONE;
  SkipLog skipLog = SkipLog.NONE;
  ExchangeRecorder recorder;
  Boolean payloadDigests; // null: when a recorder is given or the home keeps visits

  CrawlerBuilder(CrawlSettings settings, ResultSink sink) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.sink = Objects.requireNonNull(sink, "sink");
  }

  /**
   * Where the crawl lives, its run started ({@link CrawlHome#runStarts}): the frontier, what earlier runs left, the
   * page budget, the sites in scope, the visits. Its owner ends the run and closes it. Default: a new
   * {@link MemoryHome}.
   */
  public CrawlerBuilder home(CrawlHome home) {
    this.home = Objects.requireNonNull(home, "home");
    return this;
  }

  /** Hears of every URL left out, with why. Default: nobody. */
  public CrawlerBuilder skipLog(SkipLog log) {
    this.skipLog = Objects.requireNonNull(log, "log");
    return this;
  }

  /**
   * Where every HTTP exchange goes as it went over the wire (a WARC archive), robots.txt included; a failure to
   * record one fails the crawl. Default: none.
   */
  public CrawlerBuilder recorder(ExchangeRecorder recorder) {
    this.recorder = Objects.requireNonNull(recorder, "recorder");
    return this;
  }

  /**
   * The ticker every timer of the crawl reads: politeness, retries, crawl.max-time, the stop's grace period.
   * Default {@link Ticker#SYSTEM}.
   */
  public CrawlerBuilder ticker(Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    return this;
  }

  /**
   * The wall clock: when fetches started, WARC record dates, cookie expiry, robots.txt retry times. Default
   * {@link Clock#systemUTC()}.
   */
  public CrawlerBuilder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * Whether each page's payload digest (a SHA-1 of its body as sent) is computed: what a WARC revisit refers to
   * and what a recrawl compares to tell an unchanged page, shown in each record's {@code payloadDigest}. Default:
   * when exchanges are recorded ({@link #recorder}) or the home keeps visits ({@link #home}); a crawl whose visits
   * will be thrown away says false.
   */
  public CrawlerBuilder payloadDigests(boolean payloadDigests) {
    this.payloadDigests = payloadDigests;
    return this;
  }

  /** Told of every lease with the ticker's time, for tests. */
  CrawlerBuilder leaseObserver(HostScheduler.LeaseObserver observer) {
    this.leaseObserver = Objects.requireNonNull(observer, "observer");
    return this;
  }

  public Crawler build() {
    return new Crawler(this);
  }
}

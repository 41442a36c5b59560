package io.sievecrawl.app;

import io.sievecrawl.config.Setting;
import io.sievecrawl.config.Values;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.report.CrawlTotals;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.sieve.CapacityMonitor;
import io.sievecrawl.sieve.SieveStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The end-of-run summary, as lines for the console and the log. */
final class SummaryReport {
  private static final int MAX_ORIGINS_LISTED = 10;

  private SummaryReport() {}

  /** What can give a confirmed filter a larger n after this run: the advice must name a command that will work. */
  enum NextRun {
    /** The crawl did not complete: its directory is there to resume. */
    RESUME("resume with"),
    /** The crawl completed and its directory is kept: a recrawl can take a new n. */
    RECRAWL("give the next recrawl"),
    /** The crawl completed and its directory is gone, or the crawl is shared (its n is fixed): a new crawl. */
    NEW_CRAWL("give the next crawl");

    private final String advice;

    NextRun(String advice) {
      this.advice = advice;
    }
  }

  /**
   * The summary of a crawl of this machine, which {@code next} can carry on; its URL filter had capacity
   * {@code startN} when the run began.
   */
  static List<String> lines(CrawlSummary s, NextRun next, long startN) {
    return lines(s, "left in the frontier for 'resume'", next, startN);
  }

  /** As {@link #lines} for an agent of a shared crawl, whose unfinished pages go to the others. */
  static List<String> sharedLines(CrawlSummary s) {
    return lines(s, "left in the shared frontier for the other agents or 'join'", NextRun.NEW_CRAWL,
        s.sieve().capacity());
  }

  private static List<String> lines(CrawlSummary s, String leftFor, NextRun next, long startN) {
    List<String> lines = new ArrayList<>();
    SieveStats f = s.sieve();
    lines.add(String.format(Locale.ROOT, "crawl %s: %,d pages%s in %s (%s), %s read%s",
        s.end().name().toLowerCase(Locale.ROOT).replace('_', ' '), s.fetched() - s.requisites(),
        s.requisites() > 0 ? String.format(Locale.ROOT, " and %,d requisite%s", s.requisites(),
            s.requisites() == 1 ? "" : "s") : "",
        took(s.elapsed()), rate(s), Values.formatSize(s.bytes()),
        s.truncated() > 0 ? String.format(Locale.ROOT, "; %,d cut off at %s", s.truncated(),
            Setting.MAX_BODY_SIZE.key()) : ""));
    String notFetched = (s.skipped().isEmpty() ? "none" : join(s.skipped()))
        + (s.notFetched() > 0 ? String.format(Locale.ROOT, "; %s: %,d", leftFor, s.notFetched()) : "");
    if (s.responses() == 0) {
      return nothingAnswered(lines, s, notFetched); // a closed port: no column of zeros
    }
    lines.add("  pages by status: " + (s.byStatusClass().isEmpty() ? "none" : join(s.byStatusClass())));
    recrawlLines(s, lines);
    lines.add("  errors by kind:  " + (s.errors().isEmpty() ? "none" : join(s.errors())));
    lines.add("  not fetched:     " + notFetched);
    lines.add("  not followed:    " + (s.notAdmitted().isEmpty() ? "none" : join(s.notAdmitted())));
    if (!s.givenUp().isEmpty()) {
      lines.add(givenUpLine(s));
    }
    lines.add(String.format(Locale.ROOT, "  URLs admitted:   %,d%s; duplicates dropped: %,d; retries: %,d",
        s.admitted(), s.carriedOver() > 0 ? String.format(Locale.ROOT, " (plus %,d carried over from the last run)",
            s.carriedOver()) : "", f.duplicatesDropped(), s.retries()));
    // Over capacity, the URLs seen are the URLs admitted and those taken for seen: say both, so that they add up.
    lines.add(f.confirmed() ? confirmedFilterLine(f, next, startN) : String.format(Locale.ROOT, "  URL filter:      about %,d"
        + " distinct URLs seen, capacity n = %,d%s", f.estimatedUrls(), f.capacity(), f.capacityWarnings() > 0
            ? String.format(Locale.ROOT, "; OVER CAPACITY: about %,d new URLs were taken for seen and never fetched;"
                + " raise %s to %,d or more next time", Math.round(f.estimatedFalsePositiveDrops()),
                CrawlRun.CAPACITY_HINT, CapacityMonitor.suggestedCapacity(f.estimatedUrls())) : ""));
    CrawlTotals t = s.totals();
    if (t.runs() > 1) {
      lines.add(String.format(Locale.ROOT, "  whole crawl:     %,d runs, %,d pages, %s read, %s crawling",
          t.runs(), t.fetched(), Values.formatSize(t.bytes()), took(t.elapsed())));
    }
    return lines;
  }

  private static String givenUpLine(CrawlSummary s) {
    return "  origins given up: " + s.givenUp().entrySet().stream().limit(MAX_ORIGINS_LISTED)
        .map(e -> e.getKey() + " (" + e.getValue() + ")").collect(Collectors.joining(", "))
        + (s.givenUp().size() > MAX_ORIGINS_LISTED ? String.format(Locale.ROOT, ", and %,d more",
            s.givenUp().size() - MAX_ORIGINS_LISTED) : "");
  }

  /**
   * The summary of a run no server answered (a closed port, an unknown host): what was tried and why it failed,
   * without the counters that are all zero.
   */
  private static List<String> nothingAnswered(List<String> lines, CrawlSummary s, String notFetched) {
    if (!s.errors().isEmpty()) {
      lines.add("  errors by kind:  " + join(s.errors()));
    }
    if (!notFetched.equals("none")) {
      lines.add("  not fetched:     " + notFetched);
    }
    if (!s.givenUp().isEmpty()) {
      lines.add(givenUpLine(s));
    }
    return lines;
  }

  /**
   * For a recrawl: what the pages fetched again were against their last visit (a 304 is an unchanged page, not a
   * redirect), and the URLs kept as they were because recrawl.after had not passed since they were fetched.
   */
  private static void recrawlLines(CrawlSummary s, List<String> lines) {
    Map<String, Long> v = s.visits();
    long again = v.getOrDefault("unchanged", 0L) + v.getOrDefault("changed", 0L) + v.getOrDefault("gone", 0L)
        + v.getOrDefault("failed", 0L);
    long fresh = s.skipped(SkipReason.FRESH);
    if (again > 0) {
      lines.add(String.format(Locale.ROOT, "  against the last visit: unchanged %,d, changed %,d, new %,d, gone %,d%s",
          v.getOrDefault("unchanged", 0L), v.getOrDefault("changed", 0L), v.getOrDefault("new", 0L),
          v.getOrDefault("gone", 0L), v.getOrDefault("failed", 0L) > 0
              ? String.format(Locale.ROOT, ", failed %,d", v.get("failed")) : ""));
    }
    if (fresh > 0) {
      lines.add(String.format(Locale.ROOT, "  kept as they were: %,d URLs fetched less than %s ago (not visited"
          + " again; --set %s=0s visits every one)", fresh, Setting.RECRAWL_AFTER.key(),
          Setting.RECRAWL_AFTER.key()));
    }
  }

  /**
   * A confirmed filter loses nothing: say how many URLs the exact store rescued, and, when it holds more URLs than its
   * capacity now (its n as it ends: a filter that grew during the run may be under it again), what n would spare the
   * store and where to give it.
   */
  private static String confirmedFilterLine(SieveStats f, NextRun next, long startN) {
    long seen = f.admitted(); // exact: a confirmed filter admits every distinct URL it is offered, once
    String over = seen > f.capacity() ? String.format(Locale.ROOT, "; over capacity, none lost but slower: %s %s %,d"
        + " or more", next.advice, CrawlRun.CAPACITY_HINT, CapacityMonitor.suggestedCapacity(seen))
        : f.capacity() > startN ? String.format(Locale.ROOT, "; it grew from n = %,d during the crawl", startN) : "";
    return String.format(Locale.ROOT, "  URL filter:      about %,d distinct URLs seen, capacity n = %,d; URLs rescued"
        + " from false positives by the exact store: %,d%s", f.estimatedUrls(), f.capacity(), f.rescued(), over);
  }

  /**
   * The URL filter's state, for the log and {@code -v}: its fill and false-positive rate, and how many duplicates
   * it dropped that were new URLs, estimated from that fill.
   */
  static String filterDetail(CrawlSummary s) {
    SieveStats f = s.sieve();
    return String.format(Locale.ROOT, "  URL filter:      %,d of %,d bits set (%.2f%%); false-positive rate now %.3g"
        + " (target %s); about %.1f of the duplicates dropped were new URLs lost to false positives", f.setBits(),
        f.filterBits(), 100 * f.fillRatio(), f.currentFpp(), f.targetFpp(), f.estimatedFalsePositiveDrops());
  }

  /** The connections the run opened, for the log and {@code -v}: what keeping them per site saved. */
  static String connectionDetail(CrawlSummary s) {
    return String.format(Locale.ROOT, "  connections:     %,d opened (%.3f per page), %,d TLS handshakes",
        s.connections(), s.connectionsPerPage(), s.tlsHandshakes());
  }

  /** Pages per second; with requisites, also every fetch per second: pages alone would hide what the crawl did. */
  private static String rate(CrawlSummary s) {
    if (s.requisites() == 0) {
      return String.format(Locale.ROOT, "%,.1f pages/s", s.pagesPerSecond());
    }
    double pages = s.pagesPerSecond() * (s.fetched() - s.requisites()) / s.fetched();
    return String.format(Locale.ROOT, "%,.1f pages/s, %,.1f with requisites", pages, s.pagesPerSecond());
  }

  /** {@code 12.3 s} under a minute, to the tenth; {@code 12m05s}, {@code 3h02m} beyond. */
  static String took(Duration d) {
    return d.toSeconds() < 60 ? String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0)
        : ProgressLine.elapsed(d.toSeconds());
  }

  /** {@code timeout 1,204, connect 3}. */
  static String join(Map<?, Long> counts) {
    return counts.entrySet().stream()
        .map(e -> e.getKey().toString().toLowerCase(Locale.ROOT) + String.format(Locale.ROOT, " %,d", e.getValue()))
        .collect(Collectors.joining(", "));
  }
}

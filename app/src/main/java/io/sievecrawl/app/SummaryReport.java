package io.sievecrawl.app;

import io.sievecrawl.config.Values;
import io.sievecrawl.crawler.CrawlSummary;
import io.sievecrawl.crawler.CrawlTotals;
import io.sievecrawl.sieve.SieveStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The end-of-run summary, as lines for the console and the log. */
final class SummaryReport {
  private static final int MAX_ORIGINS_LISTED = 10;

  private SummaryReport() {}

  static List<String> lines(CrawlSummary s) {
    List<String> lines = new ArrayList<>();
    SieveStats f = s.sieve();
    lines.add(String.format(Locale.ROOT, "crawl %s: %d pages in %.1f s (%.1f pages/s), %s read%s",
        s.end().name().toLowerCase(Locale.ROOT).replace('_', ' '), s.fetched(), s.elapsed().toMillis() / 1000.0,
        s.pagesPerSecond(), Values.formatSize(s.bytes()),
        s.truncated() > 0 ? "; " + s.truncated() + " cut off at fetch.max-body-size" : ""));
    lines.add("  pages by status: " + (s.byStatusClass().isEmpty() ? "none" : join(s.byStatusClass())));
    lines.add("  errors by kind:  " + (s.errors().isEmpty() ? "none" : join(s.errors())));
    lines.add("  not fetched:     " + (s.skipped().isEmpty() ? "none" : join(s.skipped()))
        + (s.notFetched() > 0 ? "; left in the frontier for 'resume': " + s.notFetched() : ""));
    lines.add("  not followed:    " + (s.notAdmitted().isEmpty() ? "none" : join(s.notAdmitted())));
    if (!s.givenUp().isEmpty()) {
      lines.add("  origins given up: " + s.givenUp().entrySet().stream().limit(MAX_ORIGINS_LISTED)
          .map(e -> e.getKey() + " (" + e.getValue() + ")").collect(Collectors.joining(", "))
          + (s.givenUp().size() > MAX_ORIGINS_LISTED ? ", and " + (s.givenUp().size() - MAX_ORIGINS_LISTED) + " more"
              : ""));
    }
    lines.add(String.format(Locale.ROOT, "  URLs admitted:   %d%s; duplicates dropped: %d (about %.1f of them new URLs"
        + " lost to false positives, estimated from the filter's fill); retries: %d", s.admitted(),
        s.carriedOver() > 0 ? " (plus " + s.carriedOver() + " carried over from the last run)" : "",
        f.duplicatesDropped(), f.estimatedFalsePositiveDrops(), s.retries()));
    lines.add(String.format(Locale.ROOT, "  URL filter:      about %d URLs of capacity %d; %s of %s bits set (%.2f%%);"
        + " false-positive rate now %.3g (target %s)%s", f.estimatedUrls(), f.capacity(), f.setBits(),
        f.filterBits(), 100 * f.fillRatio(), f.currentFpp(), f.targetFpp(),
        f.capacityWarnings() > 0 ? "; OVER CAPACITY: raise filter.n (-n) next time" : ""));
    CrawlTotals t = s.totals();
    if (t.runs() > 1) {
      lines.add(String.format(Locale.ROOT, "  whole crawl:     %d runs, %d pages, %s read, %.1f s crawling",
          t.runs(), t.fetched(), Values.formatSize(t.bytes()), t.elapsed().toMillis() / 1000.0));
    }
    return lines;
  }

  private static String join(Map<?, Long> counts) {
    return counts.entrySet().stream().map(e -> e.getKey().toString().toLowerCase(Locale.ROOT) + " " + e.getValue())
        .collect(Collectors.joining(", "));
  }
}

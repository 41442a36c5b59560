package io.sievecrawl.app;

import io.sievecrawl.crawler.report.CrawlProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The progress line's fields, most important first: elapsed time, pages fetched and errors, why the crawl waits (so
 * that a slow polite crawl says so even at 60 columns), then pages/s, queued, in flight, MB/s, and where the origins
 * with waiting URLs stand. A terminal too narrow for all of them shows the leading fields that fit, whole.
 */
final class ProgressLine {
  private static final String SEPARATOR = " | ";

  private ProgressLine() {}

  /** The whole line, for the log. */
  static String line(List<String> fields) {
    return String.join(SEPARATOR, fields);
  }

  static List<String> fields(CrawlProgress p, double pagesPerSecond, double megabytesPerSecond,
      long elapsedSeconds) {
    List<String> fields = new ArrayList<>(List.of(elapsed(elapsedSeconds),
        String.format(Locale.ROOT, "fetched %,d", p.fetched()),
        String.format(Locale.ROOT, "errors %,d", p.errors())));
    CrawlProgress.Origins o = p.origins();
    if (o.pacedByDelay()) {
      fields.add("paced by politeness"); // short enough to fit at 60 columns
    } else if (pagesPerSecond < 0.5 && p.inFlight() > 0 && o.due() == 0) {
      fields.add(String.format(Locale.ROOT, "waiting on %,d responses", p.inFlight()));
    }
    fields.add(String.format(Locale.ROOT, "%,.0f p/s", pagesPerSecond));
    fields.add(String.format(Locale.ROOT, "queued %,d", p.queued()));
    fields.add(String.format(Locale.ROOT, "in flight %,d", p.inFlight()));
    fields.add(String.format(Locale.ROOT, "%,.1f MB/s", megabytesPerSecond));
    fields.add("origins " + origins(o));
    return fields;
  }

  /**
   * The leading {@code fields} that fit in a line of {@code columns}, the last column left free (writing there
   * makes some terminals wrap); the first one cut if even it does not fit.
   */
  static String fit(List<String> fields, int columns) {
    int room = Math.max(1, columns - 1);
    String line = "";
    for (String field : fields) {
      String longer = line.isEmpty() ? field : line + SEPARATOR + field;
      if (longer.length() > room) {
        return line.isEmpty() ? field.substring(0, room) : line;
      }
      line = longer;
    }
    return line;
  }

  private static String origins(CrawlProgress.Origins o) {
    StringBuilder origins = new StringBuilder();
    appendCount(origins, o.due(), "due");
    appendCount(origins, o.onDelay(), "on delay");
    appendCount(origins, o.paused(), "paused");
    appendCount(origins, o.givenUp(), "given up");
    return origins.isEmpty() ? "none waiting" : origins.toString();
  }

  private static void appendCount(StringBuilder out, long count, String what) {
    if (count > 0) {
      out.append(out.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%,d", count)).append(' ').append(what);
    }
  }

  /** {@code 45s}, {@code 12m05s}, {@code 3h02m}. */
  static String elapsed(long seconds) {
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
    }
    return String.format(Locale.ROOT, "%,dh%02dm", seconds / 3600, seconds % 3600 / 60);
  }
}

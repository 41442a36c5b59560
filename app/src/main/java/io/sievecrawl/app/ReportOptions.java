package io.sievecrawl.app;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.report.OriginRow;
import io.sievecrawl.crawler.report.SkipLog;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.sieve.Durable;
import io.sievecrawl.sieve.SieveStats;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/** What a crawl reports besides its results: the summary as JSON, a table of origins, the URLs left out. */
final class ReportOptions {
  /** Made only for --stats-json: Jackson's ObjectMapper takes some 30 ms of CPU to initialize, on every start. */
  private static final class StatsJson {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  }

  @Option(names = "--stats-json", paramLabel = "FILE",
      description = "At the end, write the summary as one JSON document, with a row per origin (pages, bytes, status"
          + " classes, errors, robots.txt, time paused) (default none).")
  Path statsJson;

  @Option(names = "--hosts", paramLabel = "N", defaultValue = "0",
      description = "At the end, show the N busiest origins on the console (the log always gets the top 10)"
          + " (default: ${DEFAULT-VALUE}).")
  int hosts;

  private Path wacz; // --wacz, an option of the archive's (SettingsOptions)

  @Option(names = "--log-skipped", paramLabel = "FILE",
      description = "Write every URL left out (out of scope, a trap, already seen, robots.txt, a budget) as a JSON"
          + " line with its reason and referrer (default none).")
  Path logSkipped;

  /** Packages the WARC files as {@code wacz} at the end of the run ({@code --wacz}; null: no package). */
  ReportOptions packagingAs(Path wacz) {
    this.wacz = wacz;
    return this;
  }

  /** The skip log {@code --log-skipped} asks for, or {@link SkipLog#NONE}; close it with {@link #close}. */
  SkipLog skipLog() {
    if (logSkipped == null) {
      return SkipLog.NONE;
    }
    try {
      return new JsonSkipLog(new FileOutputStream(logSkipped.toFile(), true));
    } catch (IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write " + logSkipped + ": " + Errors.reason(e));
    }
  }

  /** Adds the report files asked for to {@code outputs}, for their checks. */
  OutputPaths addTo(OutputPaths outputs) {
    return outputs.file("--stats-json", statsJson).file("--log-skipped", logSkipped).file("--wacz", wacz);
  }

  /** Fails with one line when a report file cannot be written, before the crawl creates or empties anything. */
  void checkWritable() {
    OutputCheck.file(statsJson);
    OutputCheck.file(logSkipped);
    OutputCheck.file(wacz);
  }

  /** Fails with one line when {@code --wacz} is given without WARC files to package. */
  void checkWacz(io.sievecrawl.config.CrawlSettings settings) {
    if (wacz != null && settings.warc().dir().isEmpty()) {
      throw new UserError(ExitCodes.USAGE, "--wacz packages the crawl's WARC files: give --warc DIR too");
    }
  }

  /** Packages {@code warcDir} as {@code --wacz} asks, after the run; a failure is one WARN, the crawl is whole. */
  void writeWacz(List<java.nio.file.Path> warcDirs, io.sievecrawl.crawler.warc.WaczPackage.Description description,
      StatusLine status, Logging.Verbosity verbosity, Clock clock) {
    if (wacz == null) {
      return;
    }
    try {
      io.sievecrawl.crawler.warc.WaczPackage.Summary s = io.sievecrawl.crawler.warc.WaczPackage.write(warcDirs, wacz,
          "sievecrawl " + io.sievecrawl.config.Version.get(), clock, description);
      CrawlRun.print(String.format(Locale.ROOT, "WACZ:            %s, %,d pages, %s", wacz, s.pages(),
          io.sievecrawl.config.Values.formatSize(s.packageBytes())), status, verbosity);
    } catch (IOException e) {
      org.slf4j.LoggerFactory.getLogger(ReportOptions.class).warn("could not write {} ({}); 'sievecrawl wacz' can make it"
          + " from the WARC files", wacz, Errors.reason(e));
    }
  }

  static void close(SkipLog log) {
    if (log instanceof JsonSkipLog json) {
      json.close();
    }
  }

  /** The origins table: the {@code limit} busiest. */
  static List<String> originLines(CrawlSummary summary, int limit) {
    List<String> lines = new java.util.ArrayList<>();
    if (limit <= 0 || summary.origins().isEmpty()) {
      return lines;
    }
    int[] spread = pagesPerOrigin(summary);
    lines.add(String.format(Locale.ROOT, "  pages per origin: median %,d, p10 %,d, over %,d origins%s", spread[0],
        spread[1], summary.origins().size(), summary.origins().size() >= CrawlSummary.MAX_ORIGIN_ROWS
            ? " (the most recently active: the table keeps " + String.format(Locale.ROOT, "%,d", CrawlSummary.MAX_ORIGIN_ROWS)
            + ")" : ""));
    lines.add(String.format(Locale.ROOT, "  %-40s %9s %10s %8s %9s  %s", "origin", "pages", "bytes", "errors",
        "paused s", "robots.txt"));
    for (OriginRow row : summary.origins().stream().limit(limit).toList()) {
      lines.add(String.format(Locale.ROOT, "  %-40s %,9d %10s %,8d %,9.1f  %s%s", row.origin(), row.pages(),
          io.sievecrawl.config.Values.formatSize(row.bytes()), row.errors(), row.pausedMillis() / 1000.0,
          row.robots(), row.disallowed() > 0 ? String.format(Locale.ROOT, " (%,d disallowed)", row.disallowed())
              : ""));
    }
    return lines;
  }

  /** The median and the 10th percentile of the pages fetched per origin, over the origins the summary has rows for. */
  static int[] pagesPerOrigin(CrawlSummary summary) {
    long[] pages = summary.origins().stream().mapToLong(OriginRow::pages).sorted().toArray();
    return pages.length == 0 ? new int[2]
        : new int[] {(int) pages[pages.length / 2], (int) pages[pages.length / 10]};
  }

  /** Writes the summary to {@code --stats-json}, atomically. */
  void writeStats(CrawlSummary s, Clock clock) {
    if (statsJson == null) {
      return;
    }
    Instant ended = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("end", s.end().name().toLowerCase(Locale.ROOT));
    doc.put("startedAt", ended.minusMillis(s.elapsed().toMillis()).toString());
    doc.put("endedAt", ended.toString());
    doc.put("seconds", s.elapsed().toMillis() / 1000.0);
    doc.put("pagesPerSecond", Math.round(s.pagesPerSecond() * 1000) / 1000.0);
    doc.put("fetched", s.fetched());
    doc.put("pages", s.fetched() - s.requisites());
    doc.put("requisites", s.requisites());
    doc.put("responses", s.responses());
    doc.put("bytes", s.bytes());
    doc.put("truncated", s.truncated());
    doc.put("byStatusClass", s.byStatusClass());
    doc.put("errors", s.errors());
    doc.put("retries", s.retries());
    doc.put("connections", s.connections());
    doc.put("tlsHandshakes", s.tlsHandshakes());
    doc.put("skipped", s.skipped());
    doc.put("notFollowed", s.notAdmitted());
    doc.put("carriedOver", s.carriedOver());
    doc.put("admitted", s.admitted());
    doc.put("leftInFrontier", s.notFetched());
    doc.put("originsGivenUp", s.givenUp());
    SieveStats f = s.sieve();
    Map<String, Object> filter = new LinkedHashMap<>();
    filter.put("capacity", f.capacity());
    filter.put("targetFpp", f.targetFpp());
    filter.put("bits", f.filterBits());
    filter.put("setBits", f.setBits());
    filter.put("estimatedUrls", f.estimatedUrls());
    filter.put("currentFpp", f.currentFpp());
    filter.put("duplicatesDropped", f.duplicatesDropped());
    filter.put("estimatedFalsePositiveDrops", f.estimatedFalsePositiveDrops());
    filter.put("confirmed", f.confirmed());
    filter.put("rescued", f.rescued());
    filter.put("capacityWarnings", f.capacityWarnings());
    doc.put("filter", filter);
    var t = s.totals();
    Map<String, Object> whole = new LinkedHashMap<>();
    whole.put("runs", t.runs());
    whole.put("fetched", t.fetched());
    whole.put("bytes", t.bytes());
    whole.put("retries", t.retries());
    whole.put("byStatusClass", t.byStatusClass());
    whole.put("errors", t.errors());
    whole.put("skipped", t.skipped());
    whole.put("notFollowed", t.notAdmitted());
    whole.put("seconds", t.elapsed().toMillis() / 1000.0);
    doc.put("wholeCrawl", whole);
    int[] spread = pagesPerOrigin(s);
    doc.put("pagesPerOrigin", Map.of("median", spread[0], "p10", spread[1], "origins", s.origins().size()));
    doc.put("origins", s.origins());
    try {
      Durable.replace(statsJson.toAbsolutePath(), StatsJson.JSON.writeValueAsBytes(doc));
    } catch (IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write " + statsJson + ": " + Errors.reason(e));
    }
  }

  /** Skipped URLs as JSON Lines: one line per URL, written whole. */
  private static final class JsonSkipLog implements SkipLog {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ReportOptions.class);
    private final FileOutputStream file;
    private final JsonGenerator json;
    private boolean broken;

    JsonSkipLog(FileOutputStream file) throws IOException {
      this.file = file;
      this.json = new JsonFactory().createGenerator(file, JsonEncoding.UTF8);
      this.json.setRootValueSeparator(new SerializedString(""));
    }

    @Override
    public synchronized void skipped(String url, String referrer, int depth, SkipReason reason) {
      if (broken) {
        return;
      }
      try {
        json.writeStartObject();
        json.writeStringField("url", url);
        json.writeStringField("reason", reason.wireName());
        json.writeStringField("referrer", referrer);
        json.writeNumberField("depth", depth);
        json.writeEndObject();
        json.writeRaw('\n');
        json.flush();
      } catch (IOException e) {
        broken = true; // an optional log: the crawl goes on without it
        log.error("cannot write the skipped URLs any more: {}", Errors.reason(e));
      }
    }

    synchronized void close() {
      try {
        json.close();
        file.close();
      } catch (IOException e) {
        // the lines were flushed one by one; nothing is lost
      }
    }
  }
}

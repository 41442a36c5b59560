package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.WarcSettings;
import io.sievecrawl.config.Version;
import io.sievecrawl.crawler.job.WarcDirectories;
import io.sievecrawl.crawler.warc.WarcArchive;
import io.sievecrawl.sieve.FailureLog;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A crawl run's WARC files, when {@code warc.dir} is set: opened at the start (files a killed run left open are
 * repaired then), described by a warcinfo record, forced to disk with the results, closed at the end.
 */
final class WarcOutput {
  private static final Logger log = LoggerFactory.getLogger(WarcOutput.class);

  private WarcOutput() {}

  /**
   * The archive the settings ask for, or {@code null} when {@code warc.dir} is empty.
   *
   * @param crawlName what the files are part of: the crawl directory's or the shared crawl's name
   * @param clock the wall clock, which dates the files
   * @throws UserError when the directory cannot be made or repaired
   */
  static WarcArchive open(CrawlSettings settings, String crawlName, Clock clock) {
    WarcSettings warc = settings.warc();
    if (warc.dir().isEmpty()) {
      return null;
    }
    Path dir = Path.of(warc.dir());
    try {
      WarcArchive archive = WarcArchive.open(dir, warc.prefix(), warc.maxSize(), warc.dedupDigests(),
          warcinfo(settings, crawlName), clock);
      log.info("WARC files go to {}", dir);
      return archive;
    } catch (io.sievecrawl.crawler.warc.WarcDamagedException e) {
      throw new UserError(ExitCodes.JOB, e.getMessage());
    } catch (IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write WARC files in " + dir + ": " + Errors.reason(e));
    }
  }

  /** Fails with one line when {@code warc.dir} is set and cannot be made or written, before anything is created. */
  static void checkWritable(CrawlSettings settings) {
    if (!settings.warc().dir().isEmpty()) {
      OutputCheck.directory(Path.of(settings.warc().dir()));
    }
  }

  /**
   * The warcinfo fields: the software, the format, the crawl, the robots policy, the User-Agent, and every setting
   * that shapes the crawl, one field per config key (per header for fetch.header, credentials hidden).
   */
  static Map<String, List<String>> warcinfo(CrawlSettings settings, String crawlName) {
    Map<String, List<String>> fields = new LinkedHashMap<>();
    fields.put("software", List.of("sievecrawl/" + Version.get()));
    fields.put("format", List.of("WARC File Format 1.1"));
    fields.put("conformsTo",
        List.of("https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"));
    fields.put("isPartOf", List.of(crawlName));
    fields.put("hostname", List.of(hostname()));
    fields.put("robots", List.of(settings.robots().obey() ? "obey" : "ignore"));
    fields.put("http-header-user-agent", List.of(settings.fetch().userAgentHeader()));
    if (!settings.fetch().contact().isEmpty()) {
      fields.put("operator", List.of(settings.fetch().contact()));
    }
    fields.putAll(settings.shownValues()); // credentials among fetch.header hidden
    return fields;
  }

  private static String hostname() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Forces the open file to disk; logs a failure (the next write reports it to the crawl). */
  static void sync(WarcArchive archive, FailureLog failures) {
    if (archive == null) {
      return;
    }
    try {
      archive.sync();
      failures.succeeded();
    } catch (IOException e) {
      failures.failed(Errors.reason(e));
    }
  }

  /** Where failures of {@link #sync} go: said once a minute while they last. */
  static FailureLog syncFailures(WarcArchive archive, Ticker ticker) {
    return new FailureLog(log, "cannot force WARC files in " + (archive == null ? "" : archive.dir()) + " to disk",
        ticker);
  }

  /** Closes the archive; returns the failure, if any. */
  static IOException close(WarcArchive archive) {
    if (archive == null) {
      return null;
    }
    try {
      archive.close();
      return null;
    } catch (IOException e) {
      return e;
    }
  }

  /**
   * Records the archive's directory among those of the crawl in {@code crawlDir}; returns them all (this one alone
   * when that cannot be recorded, which is logged).
   */
  static List<Path> recordIn(Path crawlDir, WarcArchive archive) {
    try {
      return WarcDirectories.add(crawlDir, archive.dir());
    } catch (IOException e) {
      log.warn("could not record the WARC directory {} in {} ({}): 'sievecrawl wacz' of the crawl directory will"
          + " not know of it", archive.dir(), crawlDir, Errors.reason(e));
      return List.of(archive.dir());
    }
  }

  /** The summary's WARC lines: this run's, and where the crawl's files are when its runs wrote to several places. */
  static List<String> summary(WarcArchive archive, List<Path> crawlDirs, Path crawlDir) {
    List<String> lines = new java.util.ArrayList<>();
    long[] identical = archive.identicalPayloads();
    lines.add(String.format(java.util.Locale.ROOT, "  WARC files:      %,d exchanges recorded in %s%s",
        archive.exchanges(), archive.dir(), identical[0] == 0 ? "" : String.format(java.util.Locale.ROOT,
            "; %,d identical payloads stored once, as revisits (%s not written again)", identical[0],
            io.sievecrawl.config.Values.formatSize(identical[1]))));
    if (crawlDirs.size() > 1) {
      lines.add(String.format(java.util.Locale.ROOT, "  this crawl's WARC files are in %d directories (%s): '%s wacz"
          + " %s -o FILE' packages them all in one WACZ, whose revisits find the captures they repeat",
          crawlDirs.size(), String.join(", ", crawlDirs.stream().map(Path::toString).toList()), CommandName.get(),
          crawlDir));
    }
    return lines;
  }
}

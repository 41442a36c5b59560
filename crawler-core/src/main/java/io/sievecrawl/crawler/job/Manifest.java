package io.sievecrawl.crawler.job;

import com.fasterxml.jackson.core.JacksonException;
import io.sievecrawl.crawler.home.CrawlIdentity;
import io.sievecrawl.sieve.Durable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The manifest of a crawl directory: what the directory is and how to continue it; replaced atomically.
 *
 * @param format always {@value #FORMAT}
 * @param version the directory's format version
 * @param output the results file (absolute), or {@code -} for standard output
 * @param n the URL filter's n, fixed for the crawl
 * @param p the URL filter's p, fixed likewise
 * @param confirm whether an exact store confirms the filter (filter.confirm when the crawl was created; false in
 *     manifests written before it existed, whose frontiers have none); with it, n and p may change on resume
 * @param generation 0 for the first crawl, then one more for each recrawl: each has its own frontier and visits
 * @param recrawlCutoff for a recrawl, the instant before which a URL's last fetch makes it due (recrawl.after
 *     before the recrawl began); URLs fetched after it are kept as they were
 * @param forgetAfter for a recrawl, the visits in a row a URL must have answered 404 or 410 to be forgotten
 */
record Manifest(String format, int version, String status, String output, long n, double p, String created,
    String updated, int runs, boolean removeWhenComplete, boolean confirm, int generation, String recrawlCutoff,
    int forgetAfter) {
  static final String FORMAT = "sievecrawl-crawl";
  // 2: the frontier keeps a queue per origin; 3: and requisite lanes, whose tasks a build of version 2 cannot read. A
  // version-2 directory holds none: it is read as it is, and written as version 3 from its next run on.
  static final int VERSION = 3;
  private static final int READS_SINCE = 2;
  private static final String FILE = CrawlFiles.MANIFEST;

  /** The manifest of a new crawl, running. */
  static Manifest create(String output, CrawlIdentity identity, String now) {
    return new Manifest(FORMAT, VERSION, DirectoryHome.Status.RUNNING.name(), output, identity.n(), identity.p(),
        now, now, 0, false, identity.confirm(), 0, null, 0);
  }

  /**
   * Reads the manifest in {@code dir}.
   *
   * @throws CrawlJobException if there is none, it is damaged, of another format or version, or names an unknown
   *     status
   */
  static Manifest read(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    Manifest manifest;
    try {
      manifest = JsonFiles.reader().readValue(Files.readAllBytes(file), Manifest.class);
    } catch (NoSuchFileException e) {
      throw new CrawlJobException(dir + " is not a sievecrawl crawl directory (no " + FILE + ")");
    } catch (JacksonException e) {
      throw new CrawlJobException(file + ": not a sievecrawl manifest, or damaged (" + e.getOriginalMessage() + ")");
    }
    if (!FORMAT.equals(manifest.format())) {
      throw new CrawlJobException(file + ": not a sievecrawl crawl manifest (format '" + manifest.format() + "')");
    }
    if (manifest.version() < READS_SINCE || manifest.version() > VERSION) {
      throw new CrawlJobException(file + ": crawl directory format version " + manifest.version()
          + ", but this build reads versions " + READS_SINCE + " to " + VERSION + (manifest.version() < VERSION
              ? "; it was written by an earlier sievecrawl: finish it with that build, or start the crawl again in a"
              + " new directory" : ""));
    }
    try {
      DirectoryHome.Status.valueOf(manifest.status());
    } catch (RuntimeException e) {
      throw new CrawlJobException(file + ": unknown status '" + manifest.status() + "'");
    }
    return manifest;
  }

  /** Whether the manifest in {@code dir} is readable and says its crawl completed. */
  static boolean completed(Path dir) {
    try {
      return DirectoryHome.Status.COMPLETED.name().equals(
          JsonFiles.reader().readValue(Files.readAllBytes(dir.resolve(FILE)), Manifest.class).status());
    } catch (IOException e) {
      return false; // damaged or unreadable: resume says what is wrong with it
    }
  }

  /** Replaces the manifest in {@code dir} atomically. */
  void write(Path dir) throws IOException {
    Durable.replace(dir.resolve(FILE), toJson());
  }

  /** The manifest as its file holds it: the fields in their order, as {@link #read} reads them. */
  byte[] toJson() throws IOException {
    return JsonFiles.object(json -> {
      json.writeStringField("format", format);
      json.writeNumberField("version", version);
      json.writeStringField("status", status);
      json.writeStringField("output", output);
      json.writeNumberField("n", n);
      json.writeNumberField("p", p);
      json.writeStringField("created", created);
      json.writeStringField("updated", updated);
      json.writeNumberField("runs", runs);
      json.writeBooleanField("removeWhenComplete", removeWhenComplete);
      json.writeBooleanField("confirm", confirm);
      json.writeNumberField("generation", generation);
      json.writeStringField("recrawlCutoff", recrawlCutoff);
      json.writeNumberField("forgetAfter", forgetAfter);
    });
  }

  CrawlIdentity identity() {
    return new CrawlIdentity(n, p, confirm, generation);
  }

  /** The generation it names, in {@code dir}. */
  Generation generation(Path dir) {
    return new Generation(dir, generation, recrawlCutoff == null ? null : Instant.parse(recrawlCutoff), forgetAfter);
  }

  Manifest withFilter(long newN, double newP) {
    return new Manifest(format, version, status, output, newN, newP, created, updated, runs, removeWhenComplete,
        confirm, generation, recrawlCutoff, forgetAfter);
  }

  Manifest withStatus(String newStatus, String when, int runCount) {
    return new Manifest(format, VERSION, newStatus, output, n, p, created, when, runCount, removeWhenComplete,
        confirm, generation, recrawlCutoff, forgetAfter);
  }

  Manifest removedWhenComplete() {
    return new Manifest(format, version, status, output, n, p, created, updated, runs, true, confirm, generation,
        recrawlCutoff, forgetAfter);
  }

  Manifest nextGeneration(Instant cutoff, int forget) {
    return new Manifest(format, version, DirectoryHome.Status.STOPPED.name(), output, n, p, created, updated, runs,
        removeWhenComplete, confirm, generation + 1, cutoff.toString(), forget);
  }

  /** The files besides the manifest a crawl directory cannot do without. */
  static List<String> needed() {
    return List.of(CrawlFiles.SETTINGS, CrawlFiles.SEEDS, CrawlFiles.STATE);
  }
}

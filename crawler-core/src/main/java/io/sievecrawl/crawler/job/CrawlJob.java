package io.sievecrawl.crawler.job;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.CrawlState;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.CrawlTotals;
import io.sievecrawl.crawler.Seeds;
import io.sievecrawl.crawler.VisitLog;
import io.sievecrawl.crawler.fetch.CookiesTxt;
import io.sievecrawl.sieve.CountMinSketch;
import io.sievecrawl.sieve.Durable;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.disk.DiskFrontier;
import io.sievecrawl.sieve.disk.FrontierCorruptException;
import io.sievecrawl.sieve.disk.FrontierOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import okhttp3.Cookie;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A crawl directory (see the package notes for its files): created for a new crawl, opened to resume one.
 *
 * <p>Every file is either written once at creation or replaced atomically ({@link Durable#replace}), so a kill or a
 * power cut leaves each one whole; the frontier repairs its own log. Not thread-safe: one thread (the command that
 * runs the crawl and its checkpoint timer, under its own lock) uses it.
 */
public final class CrawlJob implements java.io.Closeable {
  private static final Logger log = LoggerFactory.getLogger(CrawlJob.class);
  static final String FORMAT = "sievecrawl-crawl";
  static final int VERSION = 2; // 2: the frontier keeps a queue per origin
  private static final String MANIFEST = CrawlFiles.MANIFEST;
  private static final String SETTINGS = CrawlFiles.SETTINGS;
  private static final String SEEDS = CrawlFiles.SEEDS;
  private static final String STATE = CrawlFiles.STATE;
  private static final String SKETCH = CrawlFiles.SKETCH;
  private static final String COOKIES = CrawlFiles.COOKIES;
  private static final String FRONTIER = CrawlFiles.FRONTIER;
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** Where a crawl stands; recorded in the manifest when a run ends (and {@code RUNNING} while one goes on). */
  public enum Status { RUNNING, STOPPED, PAGE_LIMIT, TIME_LIMIT, FAILED, COMPLETED }

  /**
   * The manifest: what the directory is and how to continue it.
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

    Manifest withFilter(long newN, double newP) {
      return new Manifest(format, version, status, output, newN, newP, created, updated, runs, removeWhenComplete,
          confirm, generation, recrawlCutoff, forgetAfter);
    }

    Manifest withStatus(String newStatus, String when, int runCount) {
      return new Manifest(format, version, newStatus, output, n, p, created, when, runCount, removeWhenComplete,
          confirm, generation, recrawlCutoff, forgetAfter);
    }

    Manifest removedWhenComplete() {
      return new Manifest(format, version, status, output, n, p, created, updated, runs, true, confirm, generation,
          recrawlCutoff, forgetAfter);
    }

    Manifest nextGeneration(Instant cutoff, int forget) {
      return new Manifest(format, version, Status.STOPPED.name(), output, n, p, created, updated, runs,
          removeWhenComplete, confirm, generation + 1, cutoff.toString(), forget);
    }
  }

  /** The state file: the crawl's totals and the hosts in scope. */
  record StateFile(int runs, long fetched, long bytes, long retries, Map<String, Long> byStatusClass,
      Map<String, Long> errors, Map<String, Long> skipped, Map<String, Long> notAdmitted, long pagesStarted,
      long elapsedMillis, Set<String> scopeSites) {

    static StateFile of(CrawlState state) {
      CrawlTotals t = state.totals();
      return new StateFile(t.runs(), t.fetched(), t.bytes(), t.retries(), t.byStatusClass(), t.errors(), t.skipped(),
          t.notAdmitted(), t.pagesStarted(), t.elapsed().toMillis(), state.scopeSites());
    }

    CrawlTotals totals() {
      return new CrawlTotals(runs, fetched, bytes, retries, orEmpty(byStatusClass), orEmpty(errors),
          orEmpty(skipped), orEmpty(notAdmitted), pagesStarted, java.time.Duration.ofMillis(elapsedMillis));
    }

    private static Map<String, Long> orEmpty(Map<String, Long> map) {
      return map == null ? Map.of() : map;
    }
  }

  private final Path dir;
  private final DirectoryLock lock;
  private final Clock clock; // the times in the manifest
  private Manifest manifest;
  private VisitFile visits; // this run's, while it runs
  private RobotsFile robots; // this run's, while it runs
  private final Map<String, byte[]> lastWritten = new HashMap<>(); // state files as this process last wrote them
  private CountMinSketch savedSketch; // the sketch last saved, and its updates() then: not encoded again unchanged
  private long savedSketchUpdates;

  private CrawlJob(Path dir, DirectoryLock lock, Manifest manifest, Clock clock) {
    this.dir = dir;
    this.lock = lock;
    this.manifest = manifest;
    this.clock = clock;
  }

  /**
   * Makes {@code dir} (missing or empty) the directory of a new crawl.
   *
   * @param output the results file, or {@code -} for standard output
   * @param clock the wall clock, for the times in the manifest
   * @throws CrawlJobException if {@code dir} holds a crawl already, or other files
   */
  public static CrawlJob create(Path dir, CrawlSettings settings, List<String> seeds, String output, Clock clock)
      throws IOException {
    return create(dir, settings, seedsFile -> Durable.replace(seedsFile, String.join("\n", seeds) + "\n"), output,
        clock);
  }

  /**
   * As {@link #create(Path, CrawlSettings, List, String, Clock)}, with the seeds (normalized, one a line) in
   * {@code seedFile}, which is moved into the crawl directory.
   */
  public static CrawlJob create(Path dir, CrawlSettings settings, Path seedFile, String output, Clock clock)
      throws IOException {
    return create(dir, settings, seedsFile -> Durable.move(seedFile, seedsFile), output, clock);
  }

  /** Writes a new crawl's seeds file. */
  private interface SeedWriter {
    void writeTo(Path seedsFile) throws IOException;
  }

  private static CrawlJob create(Path dir, CrawlSettings settings, SeedWriter seeds, String output, Clock clock)
      throws IOException {
    if (Files.exists(dir.resolve(MANIFEST))) {
      if (completed(dir.resolve(MANIFEST))) {
        throw new CrawlJobException(dir + " holds a completed crawl: choose another directory for a new one, or"
            + " remove it");
      }
      throw new CrawlJobException(dir + " holds a crawl already: continue it with 'sievecrawl resume " + dir
          + "', or choose another directory");
    }
    if (Files.isDirectory(dir)) {
      try (Stream<Path> entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new CrawlJobException(dir + " is not empty: a new crawl needs an empty or new directory");
        }
      }
    } else if (Files.exists(dir)) {
      throw new CrawlJobException(dir + " is a file, not a directory");
    }
    Files.createDirectories(dir);
    DirectoryLock lock = DirectoryLock.take(dir);
    try {
      return create(dir, lock, settings, seeds, output, clock);
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  private static CrawlJob create(Path dir, DirectoryLock lock, CrawlSettings settings, SeedWriter seeds,
      String output, Clock clock) throws IOException {
    Files.createDirectories(dir.resolve(FRONTIER));
    Durable.replacePrivate(dir.resolve(SETTINGS), ("# The settings of this crawl; 'sievecrawl resume' reads them.\n"
        + settings.toConfigText()).getBytes(StandardCharsets.UTF_8)); // headers may hold credentials
    seeds.writeTo(dir.resolve(SEEDS));
    String now = clock.instant().toString();
    String results = output.equals("-") ? "-" : Path.of(output).toAbsolutePath().toString();
    CrawlJob job = new CrawlJob(dir, lock, new Manifest(FORMAT, VERSION, Status.RUNNING.name(), results,
        settings.filter().expectedUrls(), settings.filter().falsePositiveRate(), now, now, 0, false,
        settings.filter().confirm(), 0, null, 0), clock);
    job.writeState(CrawlState.fresh());
    job.writeManifest(); // last: a directory without a manifest is not a crawl yet
    return job;
  }

  /**
   * Opens the crawl in {@code dir}.
   *
   * @param clock the wall clock, for the times in the manifest
   * @throws CrawlJobException if there is no crawl there, it is of another format version, or a file is damaged
   */
  public static CrawlJob open(Path dir, Clock clock) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new CrawlJobException(dir + ": no such crawl directory");
    }
    Path file = dir.resolve(MANIFEST);
    Manifest manifest;
    try {
      manifest = JSON.readValue(Files.readAllBytes(file), Manifest.class);
    } catch (NoSuchFileException e) {
      throw new CrawlJobException(dir + " is not a sievecrawl crawl directory (no " + MANIFEST + ")");
    } catch (JacksonException e) {
      throw new CrawlJobException(file + ": not a sievecrawl manifest, or damaged (" + e.getOriginalMessage() + ")");
    }
    if (!FORMAT.equals(manifest.format())) {
      throw new CrawlJobException(file + ": not a sievecrawl crawl manifest (format '" + manifest.format() + "')");
    }
    if (manifest.version() != VERSION) {
      throw new CrawlJobException(file + ": crawl directory format version " + manifest.version()
          + ", but this build reads version " + VERSION + (manifest.version() < VERSION ? "; it was written by an"
          + " earlier sievecrawl: finish it with that build, or start the crawl again in a new directory" : ""));
    }
    try {
      Status.valueOf(manifest.status());
    } catch (RuntimeException e) {
      throw new CrawlJobException(file + ": unknown status '" + manifest.status() + "'");
    }
    for (String needed : List.of(SETTINGS, SEEDS, STATE)) {
      if (!Files.isRegularFile(dir.resolve(needed))) {
        throw new CrawlJobException(dir.resolve(needed) + ": missing from the crawl directory");
      }
    }
    return new CrawlJob(dir, DirectoryLock.take(dir), manifest, clock);
  }

  /** Whether {@code manifest} is readable and says its crawl completed. */
  private static boolean completed(Path manifest) {
    try {
      return Status.COMPLETED.name().equals(JSON.readValue(Files.readAllBytes(manifest), Manifest.class).status());
    } catch (IOException e) {
      return false; // damaged or unreadable: resume says what is wrong with it
    }
  }

  /** Lets another process work the crawl: releases the directory's lock (the end of the process does too). */
  @Override
  public void close() throws IOException {
    lock.close();
  }

  public Path dir() {
    return dir;
  }

  /** The results file (absolute), or {@code -} for standard output. */
  public String output() {
    return manifest.output();
  }

  public Status status() {
    return Status.valueOf(manifest.status());
  }

  /** The URL filter's n, which the crawl cannot change. */
  public long expectedUrls() {
    return manifest.n();
  }

  /** The URL filter's p, which the crawl cannot change. */
  public double fpp() {
    return manifest.p();
  }

  /** Runs started so far. */
  public int runs() {
    return manifest.runs();
  }

  /** Whether an exact store confirms the URL filter, so that n and p may change on resume. */
  public boolean confirmed() {
    return manifest.confirm();
  }

  /**
   * Records a new n and p for the URL filter, in the manifest and the crawl's settings file; the frontier rebuilds
   * its filter from the exact store when it opens next. Only for a {@linkplain #confirmed confirmed} crawl.
   */
  public synchronized void resizeFilter(long n, double p) throws IOException {
    if (!manifest.confirm()) {
      throw new IllegalStateException("the filter of a crawl without an exact store cannot be resized");
    }
    Path file = dir.resolve(SETTINGS);
    String text = Files.readString(file, StandardCharsets.UTF_8)
        .replaceAll("(?m)^filter\\.n = .*$", "filter.n = " + Setting.FILTER_N.type().format(n))
        .replaceAll("(?m)^filter\\.p = .*$", "filter.p = " + Setting.FILTER_P.type().format(p));
    Durable.replacePrivate(file, text.getBytes(StandardCharsets.UTF_8));
    manifest = manifest.withFilter(n, p);
    writeManifest();
  }

  /** Whether the directory goes when the crawl completes (it was made for the crawl, without the user naming it). */
  public boolean removedWhenComplete() {
    return manifest.removeWhenComplete();
  }

  /** Records that the directory goes when the crawl completes, whichever run completes it. */
  public synchronized void removeWhenComplete() throws IOException {
    manifest = manifest.removedWhenComplete();
    writeManifest();
  }

  /** The settings file, to load as the base of a resumed crawl's settings. */
  public Path settingsFile() {
    return dir.resolve(SETTINGS);
  }

  /**
   * The seeds, normalized, as the crawl began with them; for a recrawl, first the URLs of earlier generations' visits
   * (newest first, with what each learned; those gone too often left out), then the URLs still queued when the
   * last generation ended.
   */
  public Seeds seeds() throws IOException {
    Path file = dir.resolve(SEEDS);
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toString());
    }
    return generation().seeds(Seeds.inFile(file));
  }

  /** The generation the manifest names: 0 for the first crawl, one more for each recrawl. */
  private Generation generation() {
    return new Generation(dir, manifest.generation(),
        manifest.recrawlCutoff() == null ? null : Instant.parse(manifest.recrawlCutoff()), manifest.forgetAfter());
  }

  /**
   * Where this generation's visits are kept, for the next recrawl: opened for appending (a torn last line cut off);
   * closed when the run ends.
   */
  public synchronized VisitLog openVisitLog() throws IOException {
    if (visits == null) {
      visits = VisitFile.open(generation().visitsFile());
    }
    return visits;
  }

  /**
   * The robots.txt rules the crawl keeps ({@link RobotsFile}), for this run.
   *
   * @param memory bytes of rules read back at most
   */
  public synchronized RobotsFile openRobots(long memory) throws IOException {
    if (robots == null) {
      robots = RobotsFile.open(dir, clock, memory);
    }
    return robots;
  }

  /** Forces this generation's visits to the device, with the results file (power cuts). */
  public void syncVisits() throws IOException {
    VisitFile open;
    synchronized (this) {
      open = visits;
    }
    if (open != null) {
      open.sync();
    }
  }

  /**
   * Starts the next generation, a recrawl: the URLs still queued are written aside for it, the manifest names the
   * new generation (from then on {@link #seeds} and {@link #openFrontier} are the recrawl's), and the old frontier
   * goes. A kill before the manifest is written leaves the crawl as it was; one after it leaves the recrawl to
   * {@code resume}.
   *
   * @param cutoff URLs fetched before it are visited again; those fetched after it are kept as they were
   * @param forgetAfter visits in a row answering 404 or 410 after which a URL is forgotten
   */
  public synchronized void startRecrawl(Instant cutoff, int forgetAfter, CrawlSettings settings, Ticker ticker)
      throws IOException {
    Generation current = generation();
    long carried;
    try (DiskFrontier<CrawlTask> frontier = openFrontier(settings, Setting.FILTER_N.key(), ticker)) {
      carried = current.carryQueued(frontier);
    }
    manifest = manifest.nextGeneration(cutoff, forgetAfter);
    writeManifest();
    generation().dropPreviousFrontier();
    log.info("recrawl of {} begins: generation {}; URLs fetched before {} are visited again; {} URLs still queued"
        + " carried over", dir, manifest.generation(), cutoff, String.format(Locale.ROOT, "%,d", carried));
  }

  /**
   * The crawl's disk frontier, recovered as of its last write.
   *
   * @param ticker the crawl's ticker, for the frontier's own timing
   * @throws CrawlJobException if its files are damaged or of another version (naming the file)
   */
  public DiskFrontier<CrawlTask> openFrontier(CrawlSettings settings, String capacityHint, Ticker ticker)
      throws IOException {
    FrontierOptions options = FrontierOptions.defaults(capacityHint)
        .withSyncInterval(settings.frontier().syncInterval())
        .withCheckpointInterval(settings.frontier().checkpointInterval())
        .withConfirmation(manifest.confirm())
        .withGrowth(settings.filter().grow(), this::resizeFilter);
    try {
      Generation generation = generation();
      generation.dropPreviousFrontier(); // a kill may have come between the manifest and the deletion
      return DiskFrontier.open(generation.frontierDir(), manifest.n(), manifest.p(), CrawlTask.CODEC, CrawlTask::key,
          CrawlTask::origin, options, ticker);
    } catch (FrontierCorruptException e) {
      throw new CrawlJobException(e.getMessage(), e);
    }
  }

  /**
   * What earlier runs left: totals, hosts in scope, per-origin counts. Called once this run has started
   * ({@link #runStarts}): the totals count every earlier run, saved or not.
   *
   * @throws CrawlJobException if a state file is damaged
   */
  public CrawlState loadState() throws IOException {
    Path stateFile = dir.resolve(STATE);
    Path sketchFile = dir.resolve(SKETCH);
    Path cookieFile = dir.resolve(COOKIES);
    try {
      StateFile state = JSON.readValue(Files.readAllBytes(stateFile), StateFile.class);
      CountMinSketch sketch = Files.exists(sketchFile) ? CountMinSketch.fromBytes(Files.readAllBytes(sketchFile))
          : CrawlState.fresh().pagesPerOrigin();
      // a crawl directory of an earlier release has no cookie file: it resumes without cookies
      List<Cookie> cookies = Files.exists(cookieFile)
          ? CookiesTxt.read(new String(Files.readAllBytes(cookieFile), StandardCharsets.UTF_8)) : List.of();
      CrawlTotals totals = state.totals().withRunsAtLeast(manifest.runs() - 1); // this run has started already
      return new CrawlState(totals, state.scopeSites() == null ? Set.of() : state.scopeSites(), sketch, cookies);
    } catch (JacksonException e) {
      String why = e.getOriginalMessage() == null ? "not JSON" : e.getOriginalMessage().lines().findFirst().orElse("");
      throw new CrawlJobException(stateFile + ": damaged (" + why.strip() + (e.getLocation() == null ? ""
          : ", at line " + e.getLocation().getLineNr() + " column " + e.getLocation().getColumnNr()) + ")");
    } catch (NullPointerException e) {
      throw new CrawlJobException(stateFile + ": damaged (a field is missing)");
    } catch (IllegalArgumentException e) {
      throw new CrawlJobException(sketchFile + ": damaged (" + e.getMessage() + ")");
    }
  }

  /** Saves {@code state}: each file is replaced atomically, unless it holds what it would be replaced with. */
  public synchronized void writeState(CrawlState state) throws IOException {
    CountMinSketch sketch = state.pagesPerOrigin();
    long updates = sketch.updates();
    if (sketch != savedSketch || updates != savedSketchUpdates) {
      replaceIfChanged(SKETCH, sketch.toBytes());
      savedSketch = sketch;
      savedSketchUpdates = updates;
    }
    replaceIfChanged(STATE, JSON.writeValueAsBytes(StateFile.of(state)));
    replaceIfChanged(COOKIES, CookiesTxt.write(state.cookies()).getBytes(StandardCharsets.UTF_8));
  }

  /** A crawl that waits (a long delay, a paused host) saves its state often; unchanged files are not rewritten. */
  private void replaceIfChanged(String name, byte[] bytes) throws IOException {
    if (!Arrays.equals(lastWritten.get(name), bytes)) {
      if (name.equals(COOKIES)) {
        Durable.replacePrivate(dir.resolve(name), bytes); // session cookies are secrets
      } else {
        Durable.replace(dir.resolve(name), bytes);
      }
      lastWritten.put(name, bytes);
    }
  }

  /** Records that a run starts. */
  public synchronized void runStarts() throws IOException {
    manifest = manifest.withStatus(Status.RUNNING.name(), clock.instant().toString(), manifest.runs() + 1);
    writeManifest();
  }

  /** Records how the last run ended. */
  public synchronized void runEnded(Status status) throws IOException {
    if (visits != null) {
      visits.close();
      visits = null;
    }
    if (robots != null) {
      robots.close();
      robots = null;
    }
    manifest = manifest.withStatus(status.name(), clock.instant().toString(), manifest.runs());
    writeManifest();
    if (status == Status.COMPLETED) {
      generation().dropSuperseded();
    }
  }

  private void writeManifest() throws IOException {
    Durable.replace(dir.resolve(MANIFEST), JSON.writeValueAsBytes(manifest));
  }

  /**
   * Deletes the crawl's files (a completed crawl that nobody asked to keep) and lets its lock go; the directory goes
   * too unless it holds files the crawl did not write.
   */
  public void delete() throws IOException {
    close();
    CrawlFiles.deleteCrawl(dir);
  }

  /** Manifest fields for display: status, runs, output. */
  public Map<String, String> describe() {
    return Map.of("status", manifest.status(), "runs", Integer.toString(manifest.runs()), "output",
        manifest.output());
  }
}

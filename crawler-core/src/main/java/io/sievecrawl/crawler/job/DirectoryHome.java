package io.sievecrawl.crawler.job;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.CrawlState;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.Seeds;
import io.sievecrawl.crawler.VisitLog;
import io.sievecrawl.crawler.home.CrawlHome;
import io.sievecrawl.crawler.home.CrawlIdentity;
import io.sievecrawl.crawler.home.Frontiers;
import io.sievecrawl.crawler.home.RunOptions;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.robots.RobotsStore;
import io.sievecrawl.sieve.DirectoryLock;
import io.sievecrawl.sieve.Durable;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.disk.DiskFrontier;
import io.sievecrawl.sieve.disk.FrontierCorruptException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A crawl that lives in a crawl directory (see the package notes for its files): created for a new crawl, opened to
 * resume one; its frontier on disk.
 *
 * <p>Every file is either written once at creation or replaced atomically ({@link Durable#replace}), so a kill or a
 * power cut leaves each one whole; the frontier repairs its own log. One process at a time works the directory (its
 * lock); within it, the command that runs the crawl and its timers.
 */
public final class DirectoryHome implements CrawlHome {
  private static final Logger log = LoggerFactory.getLogger(DirectoryHome.class);

  /** Where a crawl stands; recorded in the manifest when a run ends (and {@code RUNNING} while one goes on). */
  public enum Status { RUNNING, STOPPED, PAGE_LIMIT, TIME_LIMIT, FAILED, COMPLETED }

  private final Path dir;
  private final DirectoryLock lock;
  private final Clock clock; // the times in the manifest
  private final StateFiles state;
  private Manifest manifest;
  private DiskFrontier<CrawlTask> frontier; // this run's, while it runs
  private CrawlState saved; // what earlier runs left, read when this run started
  private RunFiles runFiles; // this run's visits and robots.txt rules, while it runs

  private DirectoryHome(Path dir, DirectoryLock lock, Manifest manifest, Clock clock) {
    this.dir = dir;
    this.lock = lock;
    this.manifest = manifest;
    this.clock = clock;
    this.state = new StateFiles(dir);
  }

  /**
   * Makes {@code dir} (missing or empty) the directory of a new crawl.
   *
   * @param output the results file, or {@code -} for standard output
   * @param clock the wall clock, for the times in the manifest
   * @throws CrawlJobException if {@code dir} holds a crawl already, or other files
   */
  public static DirectoryHome create(Path dir, CrawlSettings settings, List<String> seeds, String output,
      Clock clock) throws IOException {
    return create(dir, settings, seedsFile -> Durable.replace(seedsFile, String.join("\n", seeds) + "\n"), output,
        clock);
  }

  /**
   * As {@link #create(Path, CrawlSettings, List, String, Clock)}, with the seeds (normalized, one a line) in
   * {@code seedFile}, which is moved into the crawl directory.
   */
  public static DirectoryHome create(Path dir, CrawlSettings settings, Path seedFile, String output, Clock clock)
      throws IOException {
    return create(dir, settings, seedsFile -> Durable.move(seedFile, seedsFile), output, clock);
  }

  /** Writes a new crawl's seeds file. */
  private interface SeedWriter {
    void writeTo(Path seedsFile) throws IOException;
  }

  private static DirectoryHome create(Path dir, CrawlSettings settings, SeedWriter seeds, String output,
      Clock clock) throws IOException {
    CrawlFiles.checkFreeForNewCrawl(dir);
    Files.createDirectories(dir);
    DirectoryLock lock = DirectoryLock.take(dir.resolve(CrawlFiles.LOCK),
        holder -> CrawlJobException.inUse(dir, holder));
    try {
      Files.createDirectories(dir.resolve(CrawlFiles.FRONTIER));
      Durable.replacePrivate(dir.resolve(CrawlFiles.SETTINGS), ("# The settings of this crawl; 'sievecrawl resume'"
          + " reads them.\n" + settings.toConfigText()).getBytes(StandardCharsets.UTF_8)); // headers: credentials
      seeds.writeTo(dir.resolve(CrawlFiles.SEEDS));
      String results = output.equals("-") ? "-" : Path.of(output).toAbsolutePath().toString();
      DirectoryHome home = new DirectoryHome(dir, lock, Manifest.create(results, CrawlIdentity.of(settings),
          clock.instant().toString()), clock);
      home.state.writeFresh();
      home.manifest.write(dir); // last: a directory without a manifest is not a crawl yet
      return home;
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /**
   * Opens the crawl in {@code dir}.
   *
   * @param clock the wall clock, for the times in the manifest
   * @throws CrawlJobException if there is no crawl there, it is of another format version, or a file is damaged
   */
  public static DirectoryHome open(Path dir, Clock clock) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new CrawlJobException(dir + ": no such crawl directory");
    }
    Manifest manifest = Manifest.read(dir);
    for (String needed : Manifest.needed()) {
      if (!Files.isRegularFile(dir.resolve(needed))) {
        throw new CrawlJobException(dir.resolve(needed) + ": missing from the crawl directory");
      }
    }
    DirectoryLock lock = DirectoryLock.take(dir.resolve(CrawlFiles.LOCK),
        holder -> CrawlJobException.inUse(dir, holder));
    return new DirectoryHome(dir, lock, manifest, clock);
  }

  @Override
  public synchronized CrawlIdentity identity() {
    return manifest.identity();
  }

  @Override
  public String where() {
    return dir.toString();
  }

  public Path dir() {
    return dir;
  }

  /** The results file (absolute), or {@code -} for standard output. */
  public synchronized String output() {
    return manifest.output();
  }

  public synchronized Status status() {
    return Status.valueOf(manifest.status());
  }

  /** Runs started so far. */
  public synchronized int runs() {
    return manifest.runs();
  }

  /**
   * Records a new n and p for the URL filter, in the manifest and the crawl's settings file; the frontier rebuilds
   * its filter from the exact store when it opens next. Only for a crawl whose identity has {@code confirm}.
   */
  public synchronized void resizeFilter(long n, double p) throws IOException {
    if (!manifest.confirm()) {
      throw new IllegalStateException("the filter of a crawl without an exact store cannot be resized");
    }
    Path file = dir.resolve(CrawlFiles.SETTINGS);
    String text = Files.readString(file, StandardCharsets.UTF_8)
        .replaceAll("(?m)^filter\\.n = .*$", "filter.n = " + Setting.FILTER_N.type().format(n))
        .replaceAll("(?m)^filter\\.p = .*$", "filter.p = " + Setting.FILTER_P.type().format(p));
    Durable.replacePrivate(file, text.getBytes(StandardCharsets.UTF_8));
    manifest = manifest.withFilter(n, p);
    manifest.write(dir);
  }

  /** Whether the directory goes when the crawl completes (it was made for the crawl, without the user naming it). */
  public synchronized boolean removedWhenComplete() {
    return manifest.removeWhenComplete();
  }

  /** Records that the directory goes when the crawl completes, whichever run completes it. */
  public synchronized void removeWhenComplete() throws IOException {
    manifest = manifest.removedWhenComplete();
    manifest.write(dir);
  }

  /** The settings file, to load as the base of a resumed crawl's settings. */
  public Path settingsFile() {
    return dir.resolve(CrawlFiles.SETTINGS);
  }

  /**
   * The seeds, normalized, as the crawl began with them; for a recrawl, first the URLs of earlier generations' visits
   * (newest first, with what each learned; those gone too often left out), then the URLs still queued when the
   * last generation ended.
   */
  public Seeds seeds() throws IOException {
    Path file = dir.resolve(CrawlFiles.SEEDS);
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toString());
    }
    return generation().seeds(Seeds.inFile(file));
  }

  /** The generation the manifest names: 0 for the first crawl, one more for each recrawl. */
  private synchronized Generation generation() {
    return manifest.generation(dir);
  }

  /**
   * Starts the next generation, a recrawl: the URLs still queued are written aside for it, the manifest names the
   * new generation (from then on {@link #seeds} and the frontier are the recrawl's), and the old frontier goes. A
   * kill before the manifest is written leaves the crawl as it was; one after it leaves the recrawl to
   * {@code resume}.
   *
   * @param cutoff URLs fetched before it are visited again; those fetched after it are kept as they were
   * @param forgetAfter visits in a row answering 404 or 410 after which a URL is forgotten
   */
  public synchronized void startRecrawl(Instant cutoff, int forgetAfter, RunOptions run) throws IOException {
    Generation current = generation();
    long carried;
    try (DiskFrontier<CrawlTask> old = openFrontier(run)) {
      carried = current.carryQueued(old);
    }
    manifest = manifest.nextGeneration(cutoff, forgetAfter);
    manifest.write(dir);
    generation().dropPreviousFrontier();
    log.info("recrawl of {} begins: generation {}; URLs fetched before {} are visited again; {} URLs still queued"
        + " carried over", dir, manifest.generation(), cutoff, String.format(Locale.ROOT, "%,d", carried));
  }

  private DiskFrontier<CrawlTask> openFrontier(RunOptions run) throws IOException {
    try {
      Generation generation = generation();
      generation.dropPreviousFrontier(); // a kill may have come between the manifest and the deletion
      return Frontiers.onDisk(generation.frontierDir(), identity(), run, this::resizeFilter);
    } catch (FrontierCorruptException e) {
      throw new CrawlJobException(e.getMessage(), e);
    }
  }

  /**
   * What earlier runs left: totals, hosts in scope, per-origin counts; as {@link #savedState} after a run starts.
   * The totals count every earlier run, saved or not.
   *
   * @throws CrawlJobException if a state file is damaged
   */
  public CrawlState loadState() throws IOException {
    int earlier;
    synchronized (this) {
      earlier = frontier != null ? manifest.runs() - 1 : manifest.runs(); // once started, this run is counted
    }
    return state.load(earlier);
  }

  /**
   * Records that a run starts, opens the crawl's disk frontier (recovered as of its last write), reads what earlier
   * runs left, opens this generation's visits for appending (a torn last line cut off) and reads the robots.txt
   * rules kept.
   *
   * @throws CrawlJobException if a file is damaged or of another version (naming the file)
   */
  @Override
  public synchronized void runStarts(RunOptions run) throws IOException {
    if (frontier != null) {
      throw new IllegalStateException("a run of the crawl in " + dir + " is under way");
    }
    manifest = manifest.withStatus(Status.RUNNING.name(), clock.instant().toString(), manifest.runs() + 1);
    manifest.write(dir);
    frontier = openFrontier(run);
    saved = state.load(manifest.runs() - 1); // this run has started already
    long robotsMemory = run.settings().robots().obey() ? run.settings().robots().cacheMemory() / 4 : 0;
    runFiles = RunFiles.open(dir, generation().visitsFile(), robotsMemory, clock); // rules weigh 4x their size there
  }

  @Override
  public synchronized Frontier<CrawlTask> frontier() {
    if (frontier == null) {
      throw new IllegalStateException("no run of the crawl in " + dir + " is under way");
    }
    return frontier;
  }

  @Override
  public synchronized CrawlState savedState() {
    if (saved == null) {
      throw new IllegalStateException("no run of the crawl in " + dir + " has started");
    }
    return saved;
  }

  @Override
  public synchronized VisitLog visits() {
    return runFiles == null ? VisitLog.NONE : runFiles.visits();
  }

  /** The directory's {@code robots.log}, read back when the run started. */
  @Override
  public synchronized RobotsStore robots() {
    return runFiles == null ? RobotsStore.NONE : runFiles.robots();
  }

  /** Saves {@code state}: each file is replaced atomically, unless it holds what it would be replaced with. */
  @Override
  public void save(CrawlState crawlState) throws IOException {
    state.write(crawlState);
  }

  /** Forces this generation's visits to the device, with the results file (power cuts). */
  @Override
  public void sync() throws IOException {
    RunFiles open;
    synchronized (this) {
      open = runFiles;
    }
    if (open != null) {
      open.sync();
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>A completed crawl in a directory that goes when the crawl completes ({@link #removedWhenComplete}) is not
   * checkpointed: the filter (20 MB at the default n) would be written and forced to disk only to be deleted. Should
   * the directory stay after all (its results could not be closed, or the process dies before it is removed), the
   * next run replays the frontier's log, as after a kill.
   */
  @Override
  public synchronized void runEnded(CrawlSummary.End end, CrawlState crawlState) throws IOException {
    if (frontier != null) {
      try {
        if (end != CrawlSummary.End.COMPLETED || !removedWhenComplete()) {
          frontier.checkpoint();
        }
      } catch (IOException | FrontierFailure e) {
        log.warn("could not write the final frontier checkpoint ({}); resume replays the log instead",
            e.getMessage());
      }
      DiskFrontier<CrawlTask> closing = frontier;
      frontier = null;
      closing.close();
    }
    save(crawlState);
    recordEnd(switch (end) {
      case COMPLETED -> Status.COMPLETED;
      case PAGE_LIMIT -> Status.PAGE_LIMIT;
      case TIME_LIMIT -> Status.TIME_LIMIT;
      case STOPPED -> Status.STOPPED;
      case FAILED -> Status.FAILED;
    });
  }

  /** Records how the last run ended; closes its visits and robots.txt rules. */
  synchronized void recordEnd(Status status) throws IOException {
    if (runFiles != null) {
      runFiles.close();
      runFiles = null;
    }
    manifest = manifest.withStatus(status.name(), clock.instant().toString(), manifest.runs());
    manifest.write(dir);
    if (status == Status.COMPLETED) {
      generation().dropSuperseded();
    }
  }

  /** Lets another process work the crawl: closes a frontier still open and releases the directory's lock. */
  @Override
  public void close() throws IOException {
    DiskFrontier<CrawlTask> open;
    synchronized (this) {
      open = frontier;
      frontier = null;
    }
    try {
      if (open != null) {
        open.close();
      }
    } finally {
      lock.close();
    }
  }

  /**
   * Deletes the crawl's files (a completed crawl that nobody asked to keep) and lets its lock go; the directory goes
   * too unless it holds files the crawl did not write.
   */
  public void delete() throws IOException {
    close();
    CrawlFiles.deleteCrawl(dir);
  }
}

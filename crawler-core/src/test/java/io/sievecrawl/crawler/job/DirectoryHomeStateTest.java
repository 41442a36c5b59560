package io.sievecrawl.crawler.job;

import io.sievecrawl.crawler.home.RunOptions;
import io.sievecrawl.sieve.Ticker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.CrawlState;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.warc.WarcArchive;
import io.sievecrawl.crawler.warc.WarcInUseException;
import io.sievecrawl.sieve.testing.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryHomeStateTest {
  private static final RunOptions RUN = new RunOptions(CrawlSettings.builder().build(), "filter.n", Ticker.SYSTEM);
  private final FakeClock clock = new FakeClock();

  @TempDir
  Path dir;

  @Test
  void aStateSavedAgainUnchangedLeavesItsFilesAloneAndAChangeReplacesOnlyWhatChanged() throws IOException {
    DirectoryHome job = DirectoryHome.create(dir.resolve("job"), CrawlSettings.builder().build(),
        List.of("https://example.com/"), "-", clock);
    CrawlState state = CrawlState.fresh();
    job.save(state);
    Object sketch = fileKey("pages-per-origin.cms");
    Object totals = fileKey("state.json");

    job.save(state);
    assertEquals(sketch, fileKey("pages-per-origin.cms"), "unchanged: not rewritten");
    assertEquals(totals, fileKey("state.json"));

    state.pagesPerOrigin().incrementIfBelow("https://example.com", 10);
    job.save(state);
    assertNotEquals(sketch, fileKey("pages-per-origin.cms"), "changed: replaced");
    assertEquals(totals, fileKey("state.json"));
    job.close();
    try (DirectoryHome reopened = DirectoryHome.open(dir.resolve("job"), clock)) {
      assertEquals(1, reopened.loadState().pagesPerOrigin().estimate("https://example.com"));
    }
    assertTrue(Files.size(dir.resolve("job/pages-per-origin.cms")) < 16_384,
        "a sketch of one origin is saved deflated: " + Files.size(dir.resolve("job/pages-per-origin.cms")));
  }

  /**
   * A new crawl's first run starts from the state it has just written without reading it back (JSON is slow to start
   * up): the same state its files hold; once another state is saved, the files are read.
   */
  @Test
  void aNewCrawlsFirstRunStartsFromTheStateItsFilesHoldAndLaterLoadsReadThem() throws IOException {
    try (DirectoryHome job = DirectoryHome.create(dir.resolve("job"), CrawlSettings.builder().build(),
        List.of("https://example.com/"), "-", clock)) {
      job.runStarts(RUN);
      CrawlState first = job.savedState();
      assertEquals(CrawlState.fresh().totals(), first.totals());
      assertEquals(List.of(), first.cookies());
      assertEquals(java.util.Set.of(), first.scopeSites());
      assertEquals(0, first.pagesPerOrigin().estimate("https://example.com"));
      CrawlState read = new StateFiles(dir.resolve("job")).load(0);
      assertEquals(read.totals(), first.totals(), "what the files hold");
      assertEquals(read.pagesPerOrigin().updates(), first.pagesPerOrigin().updates());

      CrawlState later = CrawlState.fresh();
      later.pagesPerOrigin().incrementIfBelow("https://example.com", 10);
      job.save(later);
      Files.writeString(dir.resolve("job/state.json"), "{");
      CrawlJobException damaged = assertThrows(CrawlJobException.class, job::loadState, "read from the files");
      assertTrue(damaged.getMessage().contains("state.json: damaged"), damaged.getMessage());
    }
  }

  @Test
  void aCompletedCrawlWhoseDirectoryGoesIsNotCheckpointedAndStillResumesFromItsLog() throws IOException {
    DirectoryHome kept = DirectoryHome.create(dir.resolve("kept"), CrawlSettings.builder().build(),
        List.of("https://example.com/"), "-", clock);
    DirectoryHome removed = DirectoryHome.create(dir.resolve("removed"), CrawlSettings.builder().build(),
        List.of("https://example.com/"), "-", clock);
    removed.removeWhenComplete();
    for (DirectoryHome job : List.of(kept, removed)) {
      job.runStarts(RUN);
      assertTrue(job.frontier().offer(new CrawlTask(Url.ofCanonical("https://example.com/"), 0, null, 0, 0)));
    }
    List<String> filtersBefore = filters(dir.resolve("removed"));
    kept.runEnded(CrawlSummary.End.COMPLETED, CrawlState.fresh());
    removed.runEnded(CrawlSummary.End.COMPLETED, CrawlState.fresh());
    kept.close();
    removed.close();
    assertEquals(1, filters(dir.resolve("kept")).size() - filtersBefore.size(), "the final checkpoint's filter");
    assertEquals(filtersBefore, filters(dir.resolve("removed")), "no filter written only to be deleted");

    // Left in place after all (its removal failed or never came), it resumes from its log: the URL is still seen.
    try (DirectoryHome resumed = DirectoryHome.open(dir.resolve("removed"), clock)) {
      assertEquals(DirectoryHome.Status.COMPLETED, resumed.status());
      resumed.runStarts(RUN);
      assertFalse(resumed.frontier().offer(new CrawlTask(Url.ofCanonical("https://example.com/"), 0, null, 0, 0)), "seen before");
      assertEquals(1, resumed.frontier().stats().queued(), "still queued: never fetched");
    }
  }

  private static List<String> filters(Path job) throws IOException {
    try (var files = Files.list(job.resolve("frontier"))) {
      return files.map(f -> f.getFileName().toString()).filter(name -> name.endsWith(".bf")).sorted().toList();
    }
  }

  @Test
  void runsKilledBeforeTheyFirstSavedTheirTotalsAreStillCountedAsRuns() throws IOException {
    DirectoryHome.create(dir.resolve("job"), CrawlSettings.builder().build(), List.of("https://example.com/"), "-",
        clock).close();
    for (int killed = 0; killed < 3; killed++) {
      try (DirectoryHome run = DirectoryHome.open(dir.resolve("job"), clock)) {
        run.runStarts(RUN); // and dies before its first save
      }
    }
    try (DirectoryHome resumed = DirectoryHome.open(dir.resolve("job"), clock)) {
      resumed.runStarts(RUN);
      assertEquals(3, resumed.loadState().totals().runs(), "the three runs before this one");
      assertEquals(4, resumed.runs());
    }
  }

  @Test
  void whatMayHoldSecretsIsReadableByItsOwnerOnly() throws IOException {
    try (DirectoryHome job = DirectoryHome.create(dir.resolve("job"), CrawlSettings.builder().build(),
        List.of("https://example.com/"), "-", clock)) {
      job.save(CrawlState.fresh());
      for (String name : List.of("settings.conf", "cookies.txt")) {
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(dir.resolve("job").resolve(name))), name);
      }
    }
  }

  @Test
  void oneProcessAtATimeWorksACrawlDirectory() throws IOException {
    DirectoryHome first = DirectoryHome.create(dir.resolve("job"), CrawlSettings.builder().build(),
        List.of("https://example.com/"), "-", clock);
    CrawlJobException e = assertThrows(CrawlJobException.class, () -> DirectoryHome.open(dir.resolve("job"), clock));
    assertEquals(dir.resolve("job") + " is in use by another sievecrawl process (process "
        + ProcessHandle.current().pid() + "): one process per crawl directory; wait for it to end, or stop it"
        + " (Ctrl-C, or kill with its process id)", e.getMessage());
    first.close();
    DirectoryHome.open(dir.resolve("job"), clock).close();
  }

  @Test
  void aWarcDirectoryInsideTheCrawlDirectoryOrTheCrawlDirectoryItselfHasALockOfItsOwn() throws IOException {
    try (DirectoryHome job = DirectoryHome.create(dir.resolve("job"), CrawlSettings.builder().build(),
        List.of("https://example.com/"), "-", clock);
        WarcArchive inside = WarcArchive.open(dir.resolve("job/warc"), "crawl", 1_000_000L, Map.of(), clock);
        WarcArchive itself = WarcArchive.open(dir.resolve("job"), "crawl", 1_000_000L, Map.of(), clock)) {
      WarcInUseException e = assertThrows(WarcInUseException.class,
          () -> WarcArchive.open(dir.resolve("job/warc"), "crawl", 1_000_000L, Map.of(), clock));
      assertEquals("another sievecrawl is writing WARC files named crawl-* there; give each agent its own --warc"
          + " directory or warc.prefix", e.getMessage());
    }
  }

  /** The file's identity (its inode): an atomic replacement makes a new one. */
  private Object fileKey(String name) throws IOException {
    return Files.readAttributes(dir.resolve("job").resolve(name), BasicFileAttributes.class).fileKey();
  }
}

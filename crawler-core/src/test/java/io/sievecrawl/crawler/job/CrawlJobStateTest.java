package io.sievecrawl.crawler.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.CrawlState;
import io.sievecrawl.sieve.testing.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrawlJobStateTest {
  private final FakeClock clock = new FakeClock();

  @TempDir
  Path dir;

  @Test
  void aStateSavedAgainUnchangedLeavesItsFilesAloneAndAChangeReplacesOnlyWhatChanged() throws IOException {
    CrawlJob job = CrawlJob.create(dir.resolve("job"), CrawlSettings.builder().build(),
        List.of("https://example.com/"), "-", clock);
    CrawlState state = CrawlState.fresh();
    job.writeState(state);
    Object sketch = fileKey("pages-per-origin.cms");
    Object totals = fileKey("state.json");

    job.writeState(state);
    assertEquals(sketch, fileKey("pages-per-origin.cms"), "unchanged: not rewritten");
    assertEquals(totals, fileKey("state.json"));

    state.pagesPerOrigin().incrementIfBelow("https://example.com", 10);
    job.writeState(state);
    assertNotEquals(sketch, fileKey("pages-per-origin.cms"), "changed: replaced");
    assertEquals(totals, fileKey("state.json"));
    job.close();
    try (CrawlJob reopened = CrawlJob.open(dir.resolve("job"), clock)) {
      assertEquals(1, reopened.loadState().pagesPerOrigin().estimate("https://example.com"));
    }
    assertTrue(Files.size(dir.resolve("job/pages-per-origin.cms")) < 16_384,
        "a sketch of one origin is saved deflated: " + Files.size(dir.resolve("job/pages-per-origin.cms")));
  }

  @Test
  void runsKilledBeforeTheyFirstSavedTheirTotalsAreStillCountedAsRuns() throws IOException {
    CrawlJob.create(dir.resolve("job"), CrawlSettings.builder().build(), List.of("https://example.com/"), "-",
        clock).close();
    for (int killed = 0; killed < 3; killed++) {
      try (CrawlJob run = CrawlJob.open(dir.resolve("job"), clock)) {
        run.runStarts(); // and dies before its first save
      }
    }
    try (CrawlJob resumed = CrawlJob.open(dir.resolve("job"), clock)) {
      resumed.runStarts();
      assertEquals(3, resumed.loadState().totals().runs(), "the three runs before this one");
      assertEquals(4, resumed.runs());
    }
  }

  @Test
  void whatMayHoldSecretsIsReadableByItsOwnerOnly() throws IOException {
    try (CrawlJob job = CrawlJob.create(dir.resolve("job"), CrawlSettings.builder().build(),
        List.of("https://example.com/"), "-", clock)) {
      job.writeState(CrawlState.fresh());
      for (String name : List.of("settings.conf", "cookies.txt")) {
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(dir.resolve("job").resolve(name))), name);
      }
    }
  }

  @Test
  void oneProcessAtATimeWorksACrawlDirectory() throws IOException {
    CrawlJob first = CrawlJob.create(dir.resolve("job"), CrawlSettings.builder().build(),
        List.of("https://example.com/"), "-", clock);
    CrawlJobException e = assertThrows(CrawlJobException.class, () -> CrawlJob.open(dir.resolve("job"), clock));
    assertEquals(dir.resolve("job") + " is in use by another sievecrawl process (process "
        + ProcessHandle.current().pid() + "): one process per crawl directory; wait for it to end, or stop it"
        + " (Ctrl-C, or kill with its process id)", e.getMessage());
    first.close();
    CrawlJob.open(dir.resolve("job"), clock).close();
  }

  /** The file's identity (its inode): an atomic replacement makes a new one. */
  private Object fileKey(String name) throws IOException {
    return Files.readAttributes(dir.resolve("job").resolve(name), BasicFileAttributes.class).fileKey();
  }
}

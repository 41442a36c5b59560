package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.bench.SyntheticSite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sievecrawl resume} of crawls run or held in child JVMs: stopped by SIGTERM, ended at a limit, or holding the
 * directory's lock. The rest of resume's tests, in-process, are in {@code ResumeTest}.
 */
class ResumeIT {
  @TempDir
  Path dir;
  private ResumeDir crawls;

  @BeforeEach
  void inDir() {
    crawls = new ResumeDir(dir);
  }

  @Test
  void sigtermLeavesADirectoryThatResumesWithNothingFetchedTwice() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(2_000, 10)) {
      Path results = dir.resolve("results.jsonl");
      Path job = dir.resolve("job");
      Path stderr = dir.resolve("stderr.txt");
      Process child = ChildProcess.start(List.of(), stderr, "crawl", crawls.seeds(site).toString(), "--job",
          job.toString(), "-o", results.toString(), "--log-file", crawls.log(), "--delay", "0ms",
          "--host-concurrency", "4", "--concurrency", "4");
      while (lineCount(results) < 300) {
        assertFalse(child.waitFor(10, TimeUnit.MILLISECONDS), "the crawl ended before it could be stopped");
      }
      child.destroy(); // SIGTERM
      assertTrue(child.waitFor(3, TimeUnit.MINUTES));
      assertEquals(ExitCodes.INTERRUPTED, child.exitValue(), Files.readString(stderr));
      assertTrue(Files.readString(stderr).contains("continue this crawl with: sievecrawl resume " + job),
          Files.readString(stderr));
      assertTrue(Files.readString(stderr).contains("(a second SIGTERM quits at once;"), "not Ctrl-C: "
          + Files.readString(stderr));

      Cmd resumed = Cmd.run("resume", job.toString(), "--log-file", crawls.log());
      assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.toString());
      assertEquals(2_000, site.pagesServedOnce(), "every page once, across the two runs");
      assertEquals(0, site.repeatedRequests());
      assertEquals(2_000, ResultRecords.urls(results).size());
      assertEquals(2_000, Files.readAllLines(results).size());
      assertTrue(resumed.err().contains("whole crawl:     2 runs, 2,000 pages"), resumed.err());

      Cmd again = Cmd.run("resume", job.toString(), "--log-file", crawls.log());
      assertEquals(ExitCodes.OK, again.exitCode());
      assertTrue(again.err().contains("is complete: nothing to resume"), again.err());
    }
  }

  /** The directory {@code crawl} makes without {@code --job} goes when a later {@code resume} completes the crawl. */
  @Test
  void theDefaultDirectoryGoesWhenResumeCompletesTheCrawl() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(100, 5)) {
      Path work = Files.createDirectories(dir.resolve("work"));
      Path stderr = dir.resolve("stderr.txt");
      Process child = ChildProcess.startIn(work, stderr, "crawl", crawls.seeds(site).toString(), "-o",
          dir.resolve("results.jsonl").toString(), "--log-file", crawls.log(), "--max-pages", "40", "--delay", "0ms");
      assertTrue(child.waitFor(3, TimeUnit.MINUTES));
      assertEquals(ExitCodes.OK, child.exitValue(), Files.readString(stderr));
      List<Path> made;
      try (Stream<Path> entries = Files.list(work)) {
        made = entries.toList();
      }
      assertEquals(1, made.size(), "the crawl directory: " + made);
      assertTrue(made.get(0).getFileName().toString().startsWith("sievecrawl-job-"), made.toString());

      Cmd resumed = Cmd.run("resume", made.get(0).toString(), "--log-file", crawls.log(), "--max-pages", "0");
      assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.toString());
      assertTrue(resumed.err().contains("crawl completed"), resumed.err());
      assertFalse(Files.exists(made.get(0)), "removed, as the crawl said it would be");
      assertEquals(100, ResultRecords.urls(dir.resolve("results.jsonl")).size());
    }
  }

  @Test
  void aCrawlDirectoryInUseByAnotherProcessIsRefusedAndAKilledHolderLeavesNoStaleLock() throws Exception {
    Path job = crawls.stoppedCrawl();
    Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), LockHolder.class.getName(), job.toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      String said = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream())).readLine();
      assertEquals("holding " + job, said);
      Cmd second = Cmd.run("resume", job.toString(), "--log-file", crawls.log());
      assertEquals(ExitCodes.JOB, second.exitCode(), second.toString());
      assertEquals("sievecrawl: " + job + " is in use by another sievecrawl process (process " + holder.pid()
          + "): one process per crawl directory; wait for it to end, or stop it (Ctrl-C, or kill with its process"
          + " id)\n", second.err());
    } finally {
      holder.destroyForcibly(); // SIGKILL: the kernel drops the lock with the process
      assertTrue(holder.waitFor(3, TimeUnit.MINUTES));
    }
    Cmd after = Cmd.run("resume", job.toString(), "--log-file", crawls.log(), "--max-pages", "0");
    assertFalse(after.err().contains("in use"), after.toString());
  }

  private static long lineCount(Path file) throws IOException {
    return Files.exists(file) ? Files.readAllLines(file).size() : 0;
  }
}

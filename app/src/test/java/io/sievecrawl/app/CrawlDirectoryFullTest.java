package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.bench.SyntheticSite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crawl directory on a full disk while the results go elsewhere: the message names the file whose write failed.
 * A file of the directory linked to {@code /dev/full} stands in for a full disk under it alone.
 */
class CrawlDirectoryFullTest {
  @TempDir
  Path dir;

  @Test
  void aVisitFileThatCannotBeWrittenIsNamedNotTheResults() throws IOException {
    Assumptions.assumeTrue(Files.exists(Path.of("/dev/full")), "needs /dev/full (Linux)");
    try (SyntheticSite site = SyntheticSite.start(30, 3)) {
      Path job = dir.resolve("job");
      Path results = dir.resolve("results.jsonl");
      String log = dir.resolve("sievecrawl.log").toString();
      Cmd first = Cmd.run("crawl", site.rootUrl(), "--job", job.toString(), "-o", results.toString(), "--log-file",
          log, "--max-pages", "3", "--delay", "0ms");
      assertEquals(ExitCodes.OK, first.exitCode(), first.toString());
      Path visits = job.resolve("visits-0.jsonl");
      Files.delete(visits);
      Files.createSymbolicLink(visits, Path.of("/dev/full"));

      Cmd resumed = Cmd.run("resume", job.toString(), "--max-pages", "0", "--log-file", log);
      assertEquals(ExitCodes.OUTPUT, resumed.exitCode(), resumed.toString());
      assertTrue(resumed.err().contains("sievecrawl: cannot write " + visits + ": No space left on device; free the"
          + " space or fix the permissions, then: sievecrawl resume " + job), resumed.err());
      assertFalse(resumed.err().contains("cannot write results"), resumed.err());
    }
  }
}

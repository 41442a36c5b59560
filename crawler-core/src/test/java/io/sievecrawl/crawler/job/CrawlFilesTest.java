package io.sievecrawl.crawler.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.CrawlState;
import io.sievecrawl.crawler.home.RunOptions;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which paths are a crawl directory's own files, however they are written, and what deleting a crawl leaves. */
class CrawlFilesTest {
  @TempDir
  Path dir;

  @Test
  void everyFileACrawlWritesIsKnownThoseOfLaterGenerationsAndTemporaryOnesIncluded() throws IOException {
    Path job = dir.resolve("job");
    assertEquals("the manifest", CrawlFiles.describe(job, job.resolve("manifest.json")));
    assertEquals("the settings", CrawlFiles.describe(job, job.resolve("settings.conf")));
    assertEquals("the seeds", CrawlFiles.describe(job, job.resolve("seeds.txt")));
    assertEquals("the state", CrawlFiles.describe(job, job.resolve("state.json")));
    assertEquals("the per-origin page counts", CrawlFiles.describe(job, job.resolve("pages-per-origin.cms")));
    assertEquals("the cookies", CrawlFiles.describe(job, job.resolve("cookies.txt")));
    assertEquals("the lock", CrawlFiles.describe(job, job.resolve("lock")));
    assertEquals("the robots.txt rules", CrawlFiles.describe(job, job.resolve("robots.log")));
    assertEquals("the visits of a generation", CrawlFiles.describe(job, job.resolve("visits-12.jsonl")));
    assertEquals("the URLs carried to a recrawl", CrawlFiles.describe(job, job.resolve("carried-3.txt")));
    assertEquals("the temporary file of the manifest", CrawlFiles.describe(job, job.resolve("manifest.json.tmp")));
    assertEquals("the temporary file of the URLs carried to a recrawl",
        CrawlFiles.describe(job, job.resolve("carried-3.txt.tmp")));
    assertEquals("the frontier", CrawlFiles.describe(job, job.resolve("frontier")));
    assertEquals("the frontier", CrawlFiles.describe(job, job.resolve("frontier-4/log-000000000001.seg")));
    assertEquals(CrawlFiles.ITSELF, CrawlFiles.describe(job, job.resolve(".")));
    assertNull(CrawlFiles.describe(job, job.resolve("results.jsonl")), "an output of the user's own");
    assertNull(CrawlFiles.describe(job, job.resolve("warc/sievecrawl-1.warc.gz")));
    assertNull(CrawlFiles.describe(job, job.resolve("visits-x.jsonl")));
    assertNull(CrawlFiles.describe(job, dir.resolve("manifest.json")), "beside the directory");
  }

  @Test
  void theNamesAreThoseTheCrawlWrites() throws IOException {
    Path job = dir.resolve("job");
    CrawlSettings settings = CrawlSettings.builder().build();
    try (DirectoryHome crawl = DirectoryHome.create(job, settings, List.of("https://example.com/"), "-",
        Clock.systemUTC())) {
      crawl.runStarts(new RunOptions(settings, "filter.n", Ticker.SYSTEM));
      crawl.runEnded(CrawlSummary.End.STOPPED, CrawlState.fresh());
    }
    try (Stream<Path> files = Files.list(job)) {
      for (Path file : files.toList()) {
        assertTrue(CrawlFiles.describe(job, file) != null, file + " is known");
      }
    }
  }

  @Test
  void linksAndRelativePathsAreFollowedToWhereTheyLead() throws IOException {
    Path job = Files.createDirectories(dir.resolve("job"));
    Files.writeString(job.resolve("cookies.txt"), "");
    Path linkedDir = Files.createSymbolicLink(dir.resolve("link"), job);
    assertEquals("the state", CrawlFiles.describe(job, linkedDir.resolve("state.json")), "a folder linked");
    assertEquals("the state", CrawlFiles.describe(linkedDir, job.resolve("state.json")), "the directory linked");
    Path linkedFile = Files.createSymbolicLink(dir.resolve("out.jsonl"), job.resolve("manifest.json"));
    assertEquals("the manifest", CrawlFiles.describe(job, linkedFile), "a link to a file not there yet");
    Path relative = Path.of("").toAbsolutePath().relativize(job.resolve("seeds.txt"));
    assertEquals("the seeds", CrawlFiles.describe(job, relative));
    Path hard = Files.createLink(dir.resolve("hard.txt"), job.resolve("cookies.txt"));
    assertEquals("the cookies", CrawlFiles.describe(job, hard), "a hard link");
    assertNull(CrawlFiles.describe(job, dir.resolve("new-folder/manifest.json")));
  }

  @Test
  void aDeletedCrawlLeavesTheFilesItDidNotWriteAndItsDirectoryWithThem() throws IOException {
    Path job = dir.resolve("job");
    DirectoryHome crawl = DirectoryHome.create(job, CrawlSettings.builder().build(), List.of("https://example.com/"), "-",
        Clock.systemUTC());
    Files.createDirectories(job.resolve("warc"));
    Files.writeString(job.resolve("warc/sievecrawl-1.warc.gz"), "archived");
    crawl.delete();
    try (Stream<Path> left = Files.list(job)) {
      assertEquals(List.of(job.resolve("warc")), left.toList());
    }
    Path other = dir.resolve("other");
    DirectoryHome.create(other, CrawlSettings.builder().build(), List.of("https://example.com/"), "-",
        Clock.systemUTC()).delete();
    assertFalse(Files.exists(other), "nothing else in it: the directory goes");
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sievecrawl.crawler.result.CrawlResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFileTest {
  private static final CrawlResult PAGE = new CrawlResult("https://example.com/", 200, "text/html", "Example", 5120, false, 0,
      null, Instant.parse("2026-11-21T05:00:00Z"), 42, 17, null, null, null, 1);

  @TempDir
  Path dir;

  @Test
  void devNullTakesResultsAndItsSyncIsNoError() throws IOException {
    Path devNull = Path.of("/dev/null");
    assumeTrue(Files.exists(devNull), "needs /dev/null");
    assertDoesNotThrow(() -> ResultsFile.checkNew(devNull.toString(), false), "/dev/null holds no results to keep");
    try (ResultsFile created = ResultsFile.create(devNull.toString(), System.out)) {
      created.writer().accept(PAGE);
      assertDoesNotThrow(created::sync, "fsync on a character device fails; a device is not forced");
    }
    try (ResultsFile resumed = ResultsFile.append(devNull.toString(), System.out)) {
      resumed.writer().accept(PAGE);
      assertDoesNotThrow(resumed::sync, "appended to: a device is not forced either");
    }
  }

  @Test
  void aResumeCutsTheTornLastLineOfARegularFile() throws IOException {
    Path out = Files.writeString(dir.resolve("pages.jsonl"), "{\"url\":\"a\"}\n{\"url\":\"b\"}\n{\"url\":\"c");
    try (ResultsFile resumed = ResultsFile.append(out.toString(), System.out)) {
      resumed.sync();
    }
    assertEquals("{\"url\":\"a\"}\n{\"url\":\"b\"}\n", Files.readString(out));
  }
}

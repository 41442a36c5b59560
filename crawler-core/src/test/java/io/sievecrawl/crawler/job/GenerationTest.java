package io.sievecrawl.crawler.job;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.LastVisit;
import io.sievecrawl.crawler.Seeds;
import io.sievecrawl.crawler.fetch.Revalidation;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.disk.DiskFrontier;
import io.sievecrawl.sieve.disk.FrontierOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a recrawl generation queues from the files earlier generations left, whole or not. */
class GenerationTest {
  private static final Instant T0 = Instant.parse("2026-11-20T10:00:00Z");
  @TempDir Path dir;

  private static CrawlResult result(String url, int status) {
    return new CrawlResult(url, status, "text/html", null, 10, false, 0, null, T0, 5, 0, null, null, null, 1, null,
        null, new CrawlResult.Capture(null, null, null, null, null));
  }

  private static CrawlTask task(String url, LastVisit last) {
    return new CrawlTask(Url.ofCanonical(url), 0, null, 0, 0, false, last);
  }

  /** What the generation's seeds queue, in the frontier's way: the first offer of a URL wins. */
  private List<String> queued(int number, int forgetAfter) throws IOException {
    Path seeds = dir.resolve("seeds.txt");
    if (!Files.exists(seeds)) {
      Files.writeString(seeds, "https://example.com/\n");
    }
    Set<String> seen = new HashSet<>();
    List<String> queued = new ArrayList<>();
    new Generation(dir, number, T0.plusSeconds(60), forgetAfter).seeds(Seeds.inFile(seeds))
        .forEachVisit((url, last) -> {
          if (seen.add(url)) {
            queued.add(url);
          }
        });
    return queued;
  }

  @Test
  void aTornTailOfTheLastGenerationsVisitsDoesNotBlockTheRecrawl() throws IOException {
    try (VisitFile v = VisitFile.open(dir.resolve("visits-0.jsonl"))) {
      v.visited(task("https://example.com/a", null), result("https://example.com/a", 200));
    }
    // generation 0's run died mid-line (ENOSPC, power cut); 'recrawl' is run next, not 'resume'
    Files.writeString(dir.resolve("visits-0.jsonl"), "{\"url\":\"https://exa", StandardCharsets.UTF_8,
        StandardOpenOption.APPEND);
    assertDoesNotThrow(() -> queued(1, 2));
  }

  @Test
  void aUrlGoneForgetAfterTimesIsNotRevivedByAnOlderGenerationsLine() throws IOException {
    String gone = "https://example.com/gone";
    try (VisitFile v = VisitFile.open(dir.resolve("visits-0.jsonl"))) {
      v.visited(task(gone, null), result(gone, 404)); // gone = 1
    }
    try (VisitFile v = VisitFile.open(dir.resolve("visits-1.jsonl"))) {
      v.visited(task(gone, new LastVisit(T0, 404, new Revalidation(null, null, null, null), 1, false, 0, false)),
          result(gone, 404)); // gone = 2
    }
    // generation 1 stopped (time limit), so visits-0 is still there; the user recrawls again, forget-after = 2
    assertFalse(queued(2, 2).contains(gone), "queued again from generation 0's older line");
  }

  @Test
  void theUrlsStillQueuedAreCarriedToTheNextGenerationWhole() throws IOException {
    Path frontierDir = dir.resolve("frontier");
    try (DiskFrontier<CrawlTask> frontier = DiskFrontier.open(frontierDir, 1_000, 0.01, CrawlTask.CODEC,
        CrawlTask::key, CrawlTask::queue, FrontierOptions.defaults("n"), Ticker.SYSTEM)) {
      for (int i = 0; i < 300; i++) {
        frontier.offer(task("https://host" + (i % 3) + ".example/" + i, null));
      }
      assertEquals(300, new Generation(dir, 0, null, 2).carryQueued(frontier));
    }
    List<String> carried = Files.readAllLines(dir.resolve("carried-1.txt"));
    assertEquals(300, new HashSet<>(carried).size());
    assertTrue(carried.contains("https://host2.example/299"));
    assertFalse(Files.exists(dir.resolve("carried-1.txt.tmp")));
  }

  @Test
  void urlsCarriedIntoAnUnfinishedGenerationAreNotLostByTheNextRecrawl() throws IOException {
    // generation 1 was stopped while it queued its seeds, before carried-1 was read; 'recrawl' then carried the
    // (few) tasks of frontier-1 into carried-2
    Files.writeString(dir.resolve("carried-1.txt"), "https://example.com/never-fetched\n");
    Files.writeString(dir.resolve("carried-2.txt"), "");
    assertTrue(queued(2, 2).contains("https://example.com/never-fetched"));
  }
}

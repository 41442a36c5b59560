package io.sievecrawl.crawler.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.LastVisit;
import io.sievecrawl.crawler.fetch.Revalidation;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.url.Url;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VisitFileTest {
  private static final Instant T0 = Instant.parse("2026-11-20T10:00:00.123456Z");

  @TempDir
  Path dir;

  private static CrawlResult result(String url, int status, CrawlResult.Capture capture) {
    return new CrawlResult(url, status, "text/html", null, 10, false, 0, null, T0, 5, 0, null, null, null, 1, null,
        null, capture);
  }

  @Test
  void visitsReadBackNewestFirstAcrossChunksAndCarryWhatTheNextVisitNeeds() throws IOException {
    Path file = dir.resolve("visits-0.jsonl");
    try (VisitFile visits = VisitFile.open(file)) {
      for (int i = 0; i < 5_000; i++) { // about 1 MB: many 64 KB chunks, lines split across them
        visits.visited(task("https://example.com/page/" + i + "?q" + "x".repeat(i % 300), null),
            result("https://example.com/page/" + i + "?q" + "x".repeat(i % 300), i % 10 == 0 ? 404 : 200,
                new CrawlResult.Capture("\"e" + i + "\"", null, "sha1:D" + i, null, null)));
      }
    }
    List<String> urls = new ArrayList<>();
    List<LastVisit> lasts = new ArrayList<>();
    VisitFile.forEachNewestFirst(file, T0.minusSeconds(1), visit -> {
      urls.add(visit.url());
      lasts.add(visit.last());
    });
    assertEquals(5_000, urls.size());
    for (int i = 0; i < 5_000; i++) {
      int page = 4_999 - i;
      assertEquals("https://example.com/page/" + page + "?q" + "x".repeat(page % 300), urls.get(i));
      LastVisit last = lasts.get(i);
      assertEquals("\"e" + page + "\"", last.revalidation().etag());
      assertEquals("sha1:D" + page, last.revalidation().payloadDigest());
      assertEquals(T0.truncatedTo(java.time.temporal.ChronoUnit.MILLIS), last.revalidation().capturedAt());
      assertEquals(page % 10 == 0 ? 1 : 0, last.gone());
      assertTrue(last.fresh(), "fetched after the cutoff");
    }
  }

  @Test
  void aRevisitKeepsTheDateAndDigestOfTheCaptureItRepeatsAndAGoneStreakGrows() throws IOException {
    Path file = dir.resolve("visits-1.jsonl");
    Instant captured = Instant.parse("2026-11-01T00:00:00.001Z");
    LastVisit before = new LastVisit(Instant.parse("2026-11-02T00:00:00Z"), 200,
        new Revalidation("\"a\"", null, "sha1:OLD", captured), 0, false, 3, false);
    LastVisit gone = new LastVisit(Instant.parse("2026-11-02T00:00:00Z"), 404,
        new Revalidation(null, null, "sha1:OLD", captured), 1, false, 1, true);
    try (VisitFile visits = VisitFile.open(file)) {
      visits.visited(task("https://example.com/same", before), result("https://example.com/same", 304,
          new CrawlResult.Capture("\"a\"", null, "sha1:OLD", CrawlResult.Capture.SERVER_NOT_MODIFIED, captured)));
      visits.visited(task("https://example.com/gone", gone), result("https://example.com/gone", 404,
          new CrawlResult.Capture(null, null, null, null, null)));
      visits.kept(task("https://example.com/fresh", before));
    }
    List<VisitFile.Visit> read = new ArrayList<>();
    VisitFile.forEachNewestFirst(file, T0, read::add);
    assertEquals("https://example.com/fresh", read.get(0).url());
    assertEquals(before.revalidation(), read.get(0).last().revalidation());
    assertFalse(read.get(0).last().fresh(), "fetched before the cutoff");
    assertEquals(2, read.get(1).last().gone());
    assertEquals("sha1:OLD", read.get(1).last().revalidation().payloadDigest(), "the last capture is kept");
    assertEquals(captured, read.get(2).last().revalidation().capturedAt());
    assertEquals(3, read.get(0).last().depth(), "a revisit keeps the depth it was found at");
    assertTrue(read.get(1).last().sitemap());
    assertEquals(304, read.get(2).last().status());
  }

  @Test
  void aTornLastLineIsCutOffWhenTheFileOpensAndADamagedLineIsRefusedByName() throws IOException {
    Path file = dir.resolve("visits-0.jsonl");
    try (VisitFile visits = VisitFile.open(file)) {
      visits.visited(task("https://example.com/a", null), result("https://example.com/a", 200, null));
    }
    Files.writeString(file, "{\"url\":\"https://exa", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
    List<VisitFile.Visit> read = new ArrayList<>();
    VisitFile.forEachNewestFirst(file, T0, read::add); // a recrawl reads an earlier generation's file as it is
    assertEquals(1, read.size());
    VisitFile.open(file).close();
    read.clear();
    VisitFile.forEachNewestFirst(file, T0, read::add);
    assertEquals(1, read.size());
    assertNull(read.get(0).last().revalidation().etag());
    Files.writeString(file, "not json\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
    CrawlJobException e = assertThrows(CrawlJobException.class,
        () -> VisitFile.forEachNewestFirst(file, T0, visit -> {}));
    assertTrue(e.getMessage().startsWith(file + ": a line is not a visit"), e.getMessage());
  }

  private static CrawlTask task(String url, LastVisit last) {
    return new CrawlTask(Url.ofCanonical(url), last == null ? 0 : last.depth(), null, 0, 0,
        last != null && last.sitemap(), last);
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sievecrawl.crawler.bench.SyntheticSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crawl in a child JVM is SIGKILLed at random moments and resumed each time: in the end every page and every page
 * requisite (with --warc, each page's image and the site's style sheet, waiting in their origin's lane ahead of the
 * pages, so that requisites are in flight at most kills) was fetched, URLs were fetched again only within the
 * in-flight bound, and the results file parses line by line, each URL once apart from those refetched. Its WARC files
 * were repaired at each resume: none is left open, every page and requisite has its response record, and jwarc's
 * validate tool accepts them all.
 */
class KillAndResumeIT {
  private static final int PAGES = 3_000;
  private static final int CONCURRENCY = 4;
  private static final int KILLS = 5;

  @TempDir
  Path dir;

  @Test
  void aCrawlKilledAtRandomMomentsAndResumedLosesNothing() throws Exception {
    Random random = new Random(7);
    try (SyntheticSite site = SyntheticSite.start(PAGES, 10)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Path job = dir.resolve("job");
      Path results = dir.resolve("results.jsonl");
      Path stderr = dir.resolve("stderr.txt");
      List<String> tuning = List.of("--concurrency", "" + CONCURRENCY, "--host-concurrency", "" + CONCURRENCY,
          "--delay", "0ms", "-n", "100k", "--log-file", dir.resolve("sievecrawl.log").toString());

      Path warc = dir.resolve("warc");
      int kills = KillLoop.run(List.of("crawl", seeds.toString(), "--job", job.toString(), "-o", results.toString(),
          "--warc", warc.toString(), "--set", "warc.max-size=2MB"), tuning, job, results, stderr, random, KILLS, 400);
      assertTrue(kills >= 3, "killed " + kills + " times");

      Map<String, Integer> records = new HashMap<>();
      ObjectMapper json = new ObjectMapper();
      for (String line : Files.readAllLines(results)) {
        JsonNode record = json.readTree(line); // throws on a torn or damaged line
        assertEquals(200, record.get("status").asInt(), line);
        records.merge(record.get("url").asText(), 1, Integer::sum);
      }
      int repeatedRecords = records.values().stream().mapToInt(n -> n - 1).sum();
      int bound = kills * CONCURRENCY;
      int fetchedAgain = site.repeatedRequests() + site.repeatedImageRequests()
          + Math.max(0, site.styleSheetRequests() - 1);
      System.out.printf("kill -9 and resume: %d kills, %d pages and requisites fetched again, %d repeated records"
          + " (bound %d)%n", kills, fetchedAgain, repeatedRecords, bound);
      assertEquals(2 * PAGES + 1, records.size(), "every page, its image and the style sheet have a record");
      assertEquals(PAGES, site.pagesServedOnce() + countRepeatedPages(site), "every page was fetched");
      assertEquals(0, site.imagesNeverServed(), "every page's image was fetched");
      assertTrue(site.styleSheetRequests() >= 1, "the style sheet was fetched");
      assertTrue(fetchedAgain <= bound,
          fetchedAgain + " URLs fetched again, more than " + bound + " (in flight at the kills)");
      assertTrue(repeatedRecords <= bound, repeatedRecords + " repeated records");
      assertTrue(Files.readString(stderr).contains("crawl completed"), Files.readString(stderr));
      checkWarc(warc, records.keySet(), kills, bound);
    }
  }

  /** No file left open, every page archived (twice at most for those in flight at a kill), every file valid. */
  private static void checkWarc(Path warc, java.util.Set<String> pages, int kills, int bound) throws Exception {
    List<Path> files;
    try (var entries = Files.list(warc)) {
      files = entries.filter(f -> !f.getFileName().toString().startsWith(".")) // not the lock, nor the index's parts
          .filter(f -> !f.getFileName().toString().equals("index.cdxj")).sorted().toList();
    }
    String index = Files.readString(warc.resolve("index.cdxj")); // built from the files after the last run
    for (String page : pages) {
      assertTrue(index.contains("\"url\": \"" + page + "\""), "indexed: " + page);
    }
    assertTrue(files.size() >= kills + 1, "a file per run at least: " + files);
    Map<String, Integer> responses = new HashMap<>();
    java.util.Set<String> serials = new java.util.HashSet<>();
    for (Path file : files) {
      String name = file.getFileName().toString();
      assertTrue(name.matches("sievecrawl-\\d{17}-\\d{5}\\.warc\\.gz"), "closed or repaired: " + name);
      assertTrue(serials.add(name.substring(name.length() - 13)), "serials go on from run to run: " + name);
      try (WarcReader reader = new WarcReader(file)) {
        for (WarcRecord record : reader) {
          if (record instanceof WarcResponse response) {
            responses.merge(response.target(), 1, Integer::sum);
          }
        }
      }
    }
    for (String page : pages) {
      assertTrue(responses.containsKey(page), "no response record for " + page);
    }
    int repeated = pages.stream().mapToInt(p -> responses.get(p) - 1).sum();
    assertTrue(repeated <= bound, repeated + " pages archived twice, more than " + bound);
    List<String> validate = new java.util.ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), "org.netpreserve.jwarc.tools.WarcTool", "validate"));
    files.forEach(f -> validate.add(f.toString()));
    Process process = new ProcessBuilder(validate).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), "jwarc validate: " + output);
  }

  /** Pages requested more than once (the server counts requests per page). */
  private static int countRepeatedPages(SyntheticSite site) {
    return PAGES - site.pagesServedOnce() - site.pagesNeverServed();
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sievecrawl.crawler.bench.SyntheticSite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crawl in a child JVM is SIGKILLed at random moments and resumed each time: in the end every page was fetched,
 * pages were fetched again only within the in-flight bound, and the results file parses line by line, each URL
 * once apart from those refetched.
 */
class KillAndResumeTest {
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

      Process child = ChildProcess.start(List.of(), stderr, concat(List.of("crawl", seeds.toString(), "--job",
          job.toString(), "-o", results.toString()), tuning));
      int kills = 0;
      while (true) {
        long linesBefore = lines(results);
        long target = linesBefore + 100 + random.nextInt(400);
        if (kills < KILLS && waitForLines(child, results, target)) {
          child.toHandle().destroyForcibly(); // SIGKILL
          assertTrue(child.waitFor(1, TimeUnit.MINUTES));
          kills++;
          child = ChildProcess.start(List.of(), stderr, concat(List.of("resume", job.toString()), tuning));
          continue;
        }
        assertTrue(child.waitFor(3, TimeUnit.MINUTES), "the crawl ends");
        assertEquals(0, child.exitValue(), Files.readString(stderr));
        break;
      }
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
      System.out.printf("kill -9 and resume: %d kills, %d pages fetched again, %d repeated records (bound %d)%n",
          kills, site.repeatedRequests(), repeatedRecords, bound);
      assertEquals(PAGES, records.size(), "every page has a record");
      assertEquals(PAGES, site.pagesServedOnce() + countRepeatedPages(site), "every page was fetched");
      assertTrue(site.repeatedRequests() <= bound,
          site.repeatedRequests() + " pages fetched again, more than " + bound + " (in flight at the kills)");
      assertTrue(repeatedRecords <= bound, repeatedRecords + " repeated records");
      assertTrue(Files.readString(stderr).contains("crawl completed"), Files.readString(stderr));
    }
  }

  /** Pages requested more than once (the server counts requests per page). */
  private static int countRepeatedPages(SyntheticSite site) {
    return PAGES - site.pagesServedOnce() - site.pagesNeverServed();
  }

  /** Waits until {@code file} holds {@code target} lines; {@code false} if the child ended first. */
  private static boolean waitForLines(Process child, Path file, long target) throws IOException, InterruptedException {
    while (lines(file) < target) {
      if (child.waitFor(10, TimeUnit.MILLISECONDS)) {
        return false;
      }
    }
    return true;
  }

  private static long lines(Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    byte[] bytes = Files.readAllBytes(file);
    long n = 0;
    for (byte b : bytes) {
      n += b == '\n' ? 1 : 0;
    }
    return n;
  }

  private static String[] concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
  }
}

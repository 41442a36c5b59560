package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sievecrawl.crawler.bench.SyntheticSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recrawl killed with SIGKILL at random moments and resumed each time keeps a first crawl's guarantees: every
 * page visited, none more than the fetches in flight at the kills, and every unchanged page still asked for with
 * its validators (answered 304), though its task went through the frontier's files.
 */
class RecrawlKillIT {
  private static final int PAGES = 1_500;
  private static final int CONCURRENCY = 4;
  private static final int KILLS = 3;

  @TempDir
  Path dir;

  @Test
  void aRecrawlKilledAndResumedVisitsEveryPageWithItsValidators() throws Exception {
    Random random = new Random(11);
    try (SyntheticSite site = SyntheticSite.start(PAGES, 10)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Path job = dir.resolve("job");
      Path results = dir.resolve("results.jsonl");
      Path stderr = dir.resolve("stderr.txt");
      List<String> tuning = List.of("--concurrency", "" + CONCURRENCY, "--host-concurrency", "" + CONCURRENCY,
          "--delay", "0ms", "--log-file", dir.resolve("sievecrawl.log").toString());
      Cmd first = Cmd.run(KillLoop.concat(List.of("crawl", seeds.toString(), "--job", job.toString(), "-o",
          results.toString(), "-n", "100k"), tuning));
      assertEquals(ExitCodes.OK, first.exitCode(), first.toString());
      long firstLines = KillLoop.lines(results);
      site.resetCounts();
      Set<String> changed = new HashSet<>();
      for (int page = 0; page < PAGES; page += 10) {
        site.change(page);
        changed.add(site.url(page));
      }

      int kills = KillLoop.run(List.of("recrawl", job.toString(), "--set", "recrawl.after=0s"), tuning, job, results,
          stderr, random, KILLS, 300);
      assertTrue(kills >= 2, "killed " + kills + " times");

      ObjectMapper json = new ObjectMapper();
      Map<String, Integer> records = new HashMap<>();
      List<String> all = Files.readAllLines(results);
      for (String line : all.subList((int) firstLines, all.size())) {
        JsonNode record = json.readTree(line); // throws on a torn or damaged line
        String url = record.get("url").asText();
        records.merge(url, 1, Integer::sum);
        if (changed.contains(url)) {
          assertEquals(200, record.get("status").asInt(), line);
        } else {
          assertEquals(304, record.get("status").asInt(), "asked with its validators after the kills: " + line);
          assertEquals("server-not-modified", record.get("revisit").asText(), line);
        }
      }
      int bound = kills * CONCURRENCY;
      assertEquals(PAGES, records.size(), "every page visited again");
      assertTrue(site.repeatedRequests() <= bound, site.repeatedRequests() + " pages asked for again");
      assertTrue(site.notModifiedAnswers() >= PAGES - changed.size(), "304s: " + site.notModifiedAnswers());
      assertTrue(Files.readString(job.resolve("manifest.json")).contains("\"generation\" : 1"));
      assertTrue(Files.readString(job.resolve("manifest.json")).contains("\"status\" : \"COMPLETED\""));
      assertFalse(Files.exists(job.resolve("visits-0.jsonl")), "the first generation's visits are superseded");
      assertFalse(Files.exists(job.resolve("frontier")), "and its frontier");
      Set<String> visited = new HashSet<>();
      for (String line : Files.readAllLines(job.resolve("visits-1.jsonl"))) {
        visited.add(json.readTree(line).get("url").asText());
      }
      assertEquals(records.keySet(), visited, "the next recrawl knows every page");
      try (Stream<Path> files = Files.list(job)) {
        assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("carried-")));
      }
    }
  }
}

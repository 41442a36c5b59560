package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sievecrawl.crawler.bench.SyntheticSite;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * {@code sievecrawl recrawl}: a site crawled, then visited again with conditional GETs. The site answers as nginx
 * does (an ETag per content, 304 when If-None-Match names it) and counts what it sent.
 */
class RecrawlTest {
  private static final int PAGES = 120;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private final Path job() {
    return dir.resolve("job");
  }

  private Path results() {
    return dir.resolve("results.jsonl");
  }

  private String log() {
    return dir.resolve("sievecrawl.log").toString();
  }

  /** The first crawl, archived, its pages' requisites too (each page's image, the style sheet) unless told not. */
  private Cmd crawl(SyntheticSite site, String... more) throws IOException {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
    List<String> args = new ArrayList<>(List.of("crawl", seeds.toString(), "--job", job().toString(), "-o",
        results().toString(), "--warc", dir.resolve("warc").toString(), "--log-file", log(), "--delay", "0ms", "-n",
        "10k"));
    args.addAll(List.of(more));
    return Cmd.run(args.toArray(String[]::new));
  }

  @Test
  void anUnchangedSiteAnswers304ToEveryPageAndTheArchiveHoldsRevisits() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(PAGES, 5)) {
      Cmd first = crawl(site);
      assertEquals(ExitCodes.OK, first.exitCode(), first.toString());
      assertEquals(PAGES, site.pagesServedOnce());
      site.resetCounts();
      site.change(3);
      site.remove(7);
      awaitNextSecond();

      Cmd recrawl = Cmd.run("recrawl", job().toString(), "--set", "recrawl.after=0s", "--warc",
          dir.resolve("warc").toString(), "--log-file", log(), "--delay", "0ms");
      assertEquals(ExitCodes.OK, recrawl.exitCode(), recrawl.toString());
      assertEquals(PAGES, site.pagesServedOnce(), "every page asked for once");
      assertEquals(0, site.repeatedRequests());
      assertEquals(PAGES - 2, site.notModifiedAnswers(), "every unchanged page answered 304: no body sent again");
      assertEquals(0, site.imagesNeverServed() + site.repeatedImageRequests(), "each requisite revisited once");

      int urls = 2 * PAGES + 1; // the pages, their images, the style sheet
      Map<String, JsonNode> second = lastRecordByUrl(results(), urls);
      assertEquals(urls, second.size());
      JsonNode changed = second.get(site.url(3));
      assertEquals(200, changed.get("status").asInt());
      assertTrue(changed.get("revisit").isNull(), "a changed page is fetched in full");
      assertEquals(404, second.get(site.url(7)).get("status").asInt(), "a removed page is recorded as gone");
      JsonNode unchanged = second.get(site.url(5));
      assertEquals(304, unchanged.get("status").asInt());
      assertEquals("server-not-modified", unchanged.get("revisit").asText());
      assertTrue(unchanged.get("payloadDigest").asText().startsWith("sha1:"));

      Map<String, String> firstCaptures = new HashMap<>();
      int revisits = 0;
      List<Path> warcs;
      try (Stream<Path> files = Files.list(dir.resolve("warc"))) {
        warcs = files.filter(f -> f.toString().endsWith(".warc.gz")).sorted().toList();
      }
      for (Path file : warcs) {
        try (WarcReader reader = new WarcReader(file)) {
          for (WarcRecord record : reader) {
            if (record instanceof WarcResponse response) {
              firstCaptures.putIfAbsent(response.target(), response.date().toString());
            } else if (record instanceof WarcRevisit revisit) {
              revisits++;
              assertEquals(WarcRevisit.SERVER_NOT_MODIFIED_1_1, revisit.profile());
              assertEquals(revisit.target(), revisit.refersToTargetURI().orElseThrow().toString());
              assertEquals(firstCaptures.get(revisit.target()),
                  revisit.headers().first("WARC-Refers-To-Date").orElseThrow(),
                  "a revisit refers to the date of the first capture");
            }
          }
        }
      }
      assertEquals(urls - 2, revisits, "every unchanged page and requisite");
      assertEquals(0, validate(warcs), "jwarc validate accepts the revisit records");
      assertEveryPageReplaysAtItsNewestCapture(site, 7);
    }
  }

  @Test
  void aRecrawlIntoAnotherWarcDirectorySaysHowToPackageBothAndTheirPackageReplays() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(PAGES, 5)) {
      assertEquals(ExitCodes.OK, crawl(site).exitCode());
      awaitNextSecond();
      Cmd recrawl = Cmd.run("recrawl", job().toString(), "--set", "recrawl.after=0s", "--warc",
          dir.resolve("warc-2").toString(), "--log-file", log(), "--delay", "0ms");
      assertEquals(ExitCodes.OK, recrawl.exitCode(), recrawl.toString());
      assertTrue(recrawl.err().contains("this crawl's WARC files are in 2 directories"), recrawl.err());
      assertTrue(recrawl.err().contains("wacz " + job() + " -o FILE' packages them all"), recrawl.err());
      assertEveryPageReplaysAtItsNewestCapture(site, -1); // revisits in warc-2, the captures they repeat in warc
    }
  }

  /**
   * Waits for the wall clock's next second. A CDXJ index dates captures to the second (as the replay tools read
   * them), so a recapture in the same second as the first capture cannot be told apart from it: on a fast machine the
   * crawl and the recrawl here fit in one second. Not a wait for the crawler: for the format's resolution.
   */
  private static void awaitNextSecond() throws InterruptedException {
    long second = java.time.Instant.now().getEpochSecond();
    while (java.time.Instant.now().getEpochSecond() == second) {
      Thread.sleep(20);
    }
  }

  /**
   * After a recrawl, the newest capture of every page (a revisit for the unchanged ones) replays as ReplayWeb.page
   * and pywb resolve it: status 200, an HTML content type and the page as the site sends it now.
   */
  private void assertEveryPageReplaysAtItsNewestCapture(SyntheticSite site, int removed) throws Exception {
    Path wacz = dir.resolve("crawl.wacz");
    Cmd packaged = Cmd.run("wacz", job().toString(), "-o", wacz.toString());
    assertEquals(ExitCodes.OK, packaged.exitCode(), packaged.toString());
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    try (ReplayResolver replay = new ReplayResolver(wacz)) {
      for (int page = 0; page < PAGES; page++) {
        if (page == removed) {
          continue;
        }
        String url = site.url(page);
        String sent = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        for (ReplayResolver.Replayed replayed : List.of(replay.wabac(url), replay.pywb(url))) {
          assertEquals(200, replayed.status(), url);
          assertTrue(replayed.contentType().startsWith("text/html"), url + ": " + replayed.headers());
          assertEquals(sent, replayed.text(), url);
        }
        String image = site.imageUrl(page);
        for (ReplayResolver.Replayed replayed : List.of(replay.wabac(image), replay.pywb(image))) {
          assertEquals(200, replayed.status(), image);
          assertEquals("image/png", replayed.contentType(), image);
        }
      }
    }
  }

  @Test
  void freshUrlsAreKeptAndAPageGoneTwiceIsForgotten() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(PAGES, 5)) {
      assertEquals(ExitCodes.OK, crawl(site, "--no-requisites").exitCode());
      site.resetCounts();
      Cmd fresh = Cmd.run("recrawl", job().toString(), "--log-file", log()); // recrawl.after = 24h: all fresh
      assertEquals(ExitCodes.OK, fresh.exitCode(), fresh.toString());
      assertEquals(PAGES, site.pagesNeverServed(), "nothing fetched a day too early");
      assertTrue(fresh.err().contains("fresh " + PAGES), fresh.err());

      site.remove(7);
      site.change(0); // the root's links are read again in the first round; later, every page answers 304
      for (int round = 1; round <= 3; round++) {
        site.resetCounts();
        Cmd again = Cmd.run("recrawl", job().toString(), "--set", "recrawl.after=0s", "--log-file", log(),
            "--delay", "0ms");
        assertEquals(ExitCodes.OK, again.exitCode(), again.toString());
        int asked = PAGES - site.pagesNeverServed();
        if (round <= 2) {
          assertEquals(PAGES, asked, "round " + round + ": every page, the removed one included");
        } else {
          assertEquals(PAGES - 1, asked, "round 3: the page gone twice is forgotten");
        }
      }
    }
  }

  @Test
  void aRecrawlKeepsEachPageAtItsDepthSoMaxDepthHolds() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(PAGES, 5)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Cmd first = Cmd.run("crawl", seeds.toString(), "--job", job().toString(), "-o", results().toString(),
          "--log-file", log(), "--delay", "0ms", "--max-depth", "1");
      assertEquals(ExitCodes.OK, first.exitCode(), first.toString());
      int reached = PAGES - site.pagesNeverServed();
      assertTrue(reached > 1 && reached < PAGES, "one hop reaches part of the site: " + reached);
      site.resetCounts();
      for (int page = 0; page < PAGES; page++) {
        site.change(page); // every page read again: its links are met again
      }
      Cmd recrawl = Cmd.run("recrawl", job().toString(), "--set", "recrawl.after=0s", "--log-file", log(),
          "--delay", "0ms");
      assertEquals(ExitCodes.OK, recrawl.exitCode(), recrawl.toString());
      assertEquals(reached, PAGES - site.pagesNeverServed(), "no page deeper than --max-depth 1");
    }
  }

  @Test
  void aUrlNotFetchedForABudgetStaysForTheNextRecrawl() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(PAGES, 5)) {
      assertEquals(ExitCodes.OK, crawl(site, "--no-requisites").exitCode());
      site.resetCounts();
      // The budget counts the whole crawl's pages per host: five more, then every revisit is skipped for it.
      Cmd limited = Cmd.run("recrawl", job().toString(), "--set", "recrawl.after=0s", "--set",
          "crawl.max-pages-per-host=" + (PAGES + 5), "--log-file", log(), "--delay", "0ms");
      assertEquals(ExitCodes.OK, limited.exitCode(), limited.toString());
      assertEquals(PAGES - 5, site.pagesNeverServed());
      java.util.Set<String> kept = new java.util.HashSet<>();
      for (String line : Files.readAllLines(job().resolve("visits-1.jsonl"))) {
        kept.add(JSON.readTree(line).get("url").asText());
      }
      assertEquals(PAGES, kept.size(), "every page kept for the next recrawl, though none was fetched");
      assertFalse(Files.exists(job().resolve("visits-0.jsonl")), "the generation completed");
    }
  }

  /** The last record of each URL among the last {@code count} lines: the recrawl's. */
  private static Map<String, JsonNode> lastRecordByUrl(Path results, int count) throws IOException {
    List<String> lines = Files.readAllLines(results, StandardCharsets.UTF_8);
    Map<String, JsonNode> byUrl = new HashMap<>();
    for (String line : lines.subList(lines.size() - count, lines.size())) {
      JsonNode record = JSON.readTree(line);
      byUrl.put(record.get("url").asText(), record);
    }
    return byUrl;
  }

  private static int validate(List<Path> files) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "org.netpreserve.jwarc.tools.WarcTool", "validate"));
    files.forEach(f -> command.add(f.toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int code = process.waitFor();
    if (code != 0) {
      System.out.println("jwarc validate: " + output);
    }
    assertFalse(output.isBlank() && code != 0);
    return code;
  }
}

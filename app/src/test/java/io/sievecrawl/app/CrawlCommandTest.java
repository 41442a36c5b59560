package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sievecrawl.crawler.bench.SyntheticSite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrawlCommandTest {
  @TempDir
  Path dir;

  @Test
  void crawlsALocalSiteIntoJsonLinesWithASummary() throws IOException {
    try (SyntheticSite site = SyntheticSite.start(60, 5)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), "\uFEFF# the site\n" + site.rootUrl() + "\n\n");
      Path out = dir.resolve("pages.jsonl");
      Path log = Files.createDirectories(dir.resolve("logs")).resolve("sievecrawl.log");
      Cmd cmd = Cmd.run("crawl", seeds.toString(), "-o", out.toString(), "--log-file", log.toString(),
          "--delay", "0ms", "--host-concurrency", "4");

      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
      List<JsonNode> records = new ArrayList<>();
      ObjectMapper json = new ObjectMapper();
      for (String line : Files.readAllLines(out)) {
        records.add(json.readTree(line));
      }
      assertEquals(60, records.size());
      Set<String> urls = new HashSet<>();
      records.forEach(r -> urls.add(r.get("url").asText()));
      assertEquals(60, urls.size(), "every page once");
      assertEquals(60, site.pagesServedOnce());
      JsonNode root = records.stream().filter(r -> r.get("depth").asInt() == 0).findFirst().orElseThrow();
      assertEquals(site.rootUrl(), root.get("url").asText());
      assertEquals(200, root.get("status").asInt());
      assertEquals("text/html", root.get("contentType").asText());
      for (String field : List.of("url", "status", "contentType", "bytes", "truncated", "depth", "referrer",
          "fetchedAt", "fetchMillis", "outlinks", "redirectTo", "error", "errorKind", "attempts")) {
        assertTrue(root.has(field), field);
      }
      assertTrue(cmd.err().contains("crawl completed: 60 pages"), cmd.toString());
      assertTrue(cmd.err().contains("pages by status: 2xx 60"), cmd.toString());
      assertFalse(cmd.err().lines().anyMatch(l -> l.trim().startsWith("origin ")),
          "no origins table on the console without --hosts: " + cmd.err());
      String logText = Files.readString(log);
      assertTrue(logText.lines().anyMatch(l -> l.contains(" origin ")), "the log gets it always");
      assertTrue(logText.matches("(?s)\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d.*INFO .*crawl starts: 1 seeds.*"), logText);
      assertTrue(logText.contains("crawl completed: 60 pages"), logText);
    }
  }

  /** A SHA-1 of every page is only worth its cost to a crawl that archives, or that keeps its visits to compare. */
  @Test
  void pagesHaveAPayloadDigestWhenTheCrawlArchivesOrKeepsItsDirectoryOnly() throws IOException {
    try (SyntheticSite site = SyntheticSite.start(5, 2)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      List<String> plain = digests(seeds, "plain");
      List<String> kept = digests(seeds, "kept", "--job", dir.resolve("job").toString());
      List<String> archived = digests(seeds, "archived", "--warc", dir.resolve("warc").toString(),
          "--no-requisites"); // the pages alone, as the other two crawls fetch
      assertEquals(List.of("null", "null", "null", "null", "null"), plain, "its directory goes when it completes");
      assertTrue(kept.size() == 5 && kept.stream().allMatch(d -> d.startsWith("sha1:")), kept.toString());
      assertTrue(archived.size() == 5 && archived.stream().allMatch(d -> d.startsWith("sha1:")), archived.toString());
      assertEquals(new HashSet<>(kept), new HashSet<>(archived));
    }
  }

  /** The payloadDigest of each record of a crawl of {@code seeds} with {@code options}, sorted. */
  private List<String> digests(Path seeds, String name, String... options) throws IOException {
    Path out = dir.resolve(name + ".jsonl");
    List<String> args = new ArrayList<>(List.of("crawl", seeds.toString(), "-o", out.toString(), "--log-file",
        dir.resolve(name + ".log").toString(), "--delay", "0ms", "-q"));
    args.addAll(List.of(options));
    Cmd cmd = Cmd.run(args.toArray(String[]::new));
    assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
    List<String> digests = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    for (String line : Files.readAllLines(out)) {
      digests.add(json.readTree(line).get("payloadDigest").asText());
    }
    digests.sort(null);
    return digests;
  }

  @Test
  void resultsCanGoToStandardOutput() throws IOException {
    try (SyntheticSite site = SyntheticSite.start(5, 2)) {
      Cmd cmd = Cmd.runWithInput(site.rootUrl() + "\n", "crawl", "-", "-o", "-", "--delay", "0ms", "-q",
          "--log-file", dir.resolve("log").toString());
      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
      assertEquals(5, cmd.out().lines().count(), cmd.toString());
      assertEquals("", cmd.err(), "quiet: no summary");
    }
  }

  @Test
  void pastCapacityAConfirmedCrawlGrowsItsFilterAndFetchesEveryPage() throws IOException {
    try (SyntheticSite site = SyntheticSite.start(1_000, 5)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Path log = dir.resolve("crawl.log");
      Path job = dir.resolve("job");
      Cmd cmd = Cmd.run("crawl", seeds.toString(), "-o", dir.resolve("out.jsonl").toString(), "--log-file",
          log.toString(), "--job", job.toString(), "-n", "150", "--delay", "0ms");
      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
      assertEquals(1_000, site.pagesServedOnce(), "every page");
      assertEquals(0, site.repeatedRequests());
      String text = Files.readString(log);
      assertTrue(text.contains("more than 150 (the filter's capacity n = 150)") && text.contains("none is lost")
          && text.contains("Growing it to n = "), text);
      assertTrue(text.contains("grew the URL filter to n = "), text);
      assertFalse(cmd.err().contains("OVER CAPACITY"), cmd.toString());
      assertTrue(cmd.err().contains("URLs rescued from false positives by the exact store: "), cmd.toString());
      assertFalse(Files.readString(job.resolve("manifest.json")).contains("\"n\" : 150,"),
          "the grown n is the crawl's");
      // It completed: nothing to resume; grown, it is over capacity only if the last growth had not caught up.
      assertFalse(cmd.err().contains("resume with"), cmd.err());
      assertTrue(cmd.err().contains("; it grew from n = 150 during the crawl")
          || cmd.err().contains("; over capacity, none lost but slower: give the next recrawl filter.n (-n) "),
          cmd.err());
    }
  }

  @Test
  void theCapacityWarningAppearsInTheLogExactlyAtNTwoNAndFourN() throws IOException {
    try (SyntheticSite site = SyntheticSite.start(1_000, 5)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Path log = dir.resolve("crawl.log");
      // One worker: the crawl order, and so what the overloaded filter drops, is the same on every run.
      Cmd cmd = Cmd.run("crawl", seeds.toString(), "-o", dir.resolve("out.jsonl").toString(), "--log-file",
          log.toString(), "-n", "150", "-p", "0.001", "--concurrency", "1", "--host-concurrency", "1", "--delay", "0ms",
          "--set", "filter.confirm=false");
      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
      List<String> warnings = Files.readAllLines(log).stream().filter(l -> l.contains("URL filter over capacity")).toList();
      assertEquals(3, warnings.size(), String.join("\n", warnings));
      assertTrue(warnings.get(0).contains(" WARN ") && warnings.get(0).contains("more than 150 (the filter's capacity n = 150)"),
          warnings.get(0));
      assertTrue(warnings.get(1).contains("more than 300 (2n)"), warnings.get(1));
      assertTrue(warnings.get(2).contains("more than 600 (4n)"), warnings.get(2));
      assertTrue(warnings.get(0).matches(".*Raise filter.n \\(-n\\) to [0-9,]+ or more for the next crawl.*"),
          warnings.get(0));
      assertTrue(cmd.err().contains("OVER CAPACITY"), cmd.toString());
      // The summary's counts add up: URLs admitted and URLs taken for seen make about the URLs seen (within 1% in
      // six runs; the URLs seen vary from run to run, as the pages lost differ).
      java.util.regex.Matcher filter = java.util.regex.Pattern.compile("about ([0-9,]+) distinct URLs seen, capacity n"
          + " = 150; OVER CAPACITY: about ([0-9,]+) new URLs were taken for seen").matcher(cmd.err());
      java.util.regex.Matcher admitted = java.util.regex.Pattern.compile("URLs admitted: +([0-9,]+)").matcher(cmd.err());
      assertTrue(filter.find() && admitted.find(), cmd.err());
      long seen = Long.parseLong(filter.group(1).replace(",", ""));
      long lost = Long.parseLong(filter.group(2).replace(",", ""));
      long kept = Long.parseLong(admitted.group(1).replace(",", ""));
      assertTrue(Math.abs(kept + lost - seen) < seen * 0.15, kept + " admitted + " + lost + " lost vs " + seen);
    }
  }

  @Test
  void printSettingsShowsFlagsOverFileOverDefaults() throws IOException {
    Path config = Files.writeString(dir.resolve("crawl.conf"), "[politeness]\ndelay = 250ms\nhost-concurrency = 3\n");
    Cmd cmd = Cmd.run("crawl", "-c", config.toString(), "--host-concurrency", "5", "--max-time", "6h",
        "--print-settings");
    assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.out().contains("crawl.max-time = 6h    # --max-time"), cmd.out());
    assertTrue(cmd.out().contains("politeness.delay = 250ms    # " + config + ":2"), cmd.out());
    assertTrue(cmd.out().contains("politeness.host-concurrency = 5    # --host-concurrency"), cmd.out());
    assertTrue(cmd.out().contains("crawl.concurrency = 32    # default"), cmd.out());
  }

  @Test
  void aCrawlDirectorysWarcFilesArePackagedAsWaczAfterTheFact() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(20, 3)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Path job = dir.resolve("job");
      Cmd crawl = Cmd.run("crawl", seeds.toString(), "--job", job.toString(), "-o", dir.resolve("out.jsonl").toString(),
          "--log-file", dir.resolve("log").toString(), "--delay", "0ms", "--warc", dir.resolve("warc").toString());
      assertEquals(ExitCodes.OK, crawl.exitCode(), crawl.toString());
      Path wacz = dir.resolve("crawl.wacz");
      Cmd cmd = Cmd.run("wacz", job.toString(), "-o", wacz.toString());
      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
      assertTrue(cmd.out().startsWith(wacz + ": 1 WARC files"), cmd.out());
      assertTrue(cmd.out().contains(", 20 pages, "), cmd.out());
      try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(wacz.toFile())) {
        assertEquals(21, new String(zip.getInputStream(zip.getEntry("pages/pages.jsonl")).readAllBytes())
            .lines().count(), "a header and 20 pages");
      }
      Cmd byDefault = Cmd.run("wacz", job.toString());
      assertEquals(ExitCodes.OK, byDefault.exitCode(), byDefault.toString());
      assertTrue(byDefault.out().startsWith(dir.resolve("job.wacz") + ": "), "DIR.wacz beside DIR: " + byDefault);
      try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(dir.resolve("job.wacz").toFile())) {
        JsonNode datapackage = new ObjectMapper().readTree(zip.getInputStream(zip.getEntry("datapackage.json")));
        assertEquals("job", datapackage.get("title").asText(), "the crawl's name, not its WARC folder's");
        assertEquals(site.rootUrl(), datapackage.get("mainPageURL").asText(), "the first seed");
      }
      Cmd again = Cmd.run("wacz", dir.resolve("warc").toString(), "-o", wacz.toString());
      assertEquals(ExitCodes.OUTPUT, again.exitCode(), again.toString());
      assertEquals("sievecrawl: " + wacz + " exists: choose another name, or add --overwrite\n", again.err());
      assertEquals(ExitCodes.OK, Cmd.run("wacz", dir.resolve("warc").toString(), "-o", wacz.toString(),
          "--overwrite").exitCode(), "a WARC directory does too");
      Cmd atTheEnd = Cmd.run("crawl", seeds.toString(), "-o", dir.resolve("out2.jsonl").toString(), "--log-file",
          dir.resolve("log").toString(), "--delay", "0ms", "--warc", dir.resolve("warc2").toString(), "--wacz",
          dir.resolve("end.wacz").toString());
      assertEquals(ExitCodes.OK, atTheEnd.exitCode(), atTheEnd.toString());
      assertTrue(atTheEnd.err().contains("WACZ:            " + dir.resolve("end.wacz") + ", 20 pages"), atTheEnd.err());
      Cmd withoutWarc = Cmd.run("crawl", seeds.toString(), "-o", dir.resolve("out3.jsonl").toString(), "--wacz",
          dir.resolve("x.wacz").toString());
      assertEquals(ExitCodes.USAGE, withoutWarc.exitCode(), withoutWarc.toString());
      assertEquals("sievecrawl: --wacz packages the crawl's WARC files: give --warc DIR too\n", withoutWarc.err());
      Cmd none = Cmd.run("wacz", dir.toString(), "-o", dir.resolve("none.wacz").toString());
      assertEquals(ExitCodes.JOB, none.exitCode(), none.toString());
      assertEquals("sievecrawl: " + dir + " holds no WARC files (*.warc.gz)\n", none.err());
    }
  }

  @Test
  void warcFilesComeWithTheCrawlAndTheSummarySaysWhere() throws IOException {
    try (SyntheticSite site = SyntheticSite.start(20, 3)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Path warc = dir.resolve("warc");
      Cmd cmd = Cmd.run("crawl", seeds.toString(), "-o", dir.resolve("out.jsonl").toString(), "--log-file",
          dir.resolve("log").toString(), "--delay", "0ms", "--warc", warc.toString());
      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
      List<Path> files;
      try (var entries = Files.list(warc)) {
        files = entries.filter(f -> f.getFileName().toString().endsWith(".warc.gz")).toList(); // not lock, index
      }
      assertEquals(1, files.size(), files.toString());
      assertTrue(Files.readString(warc.resolve("index.cdxj")).lines().count() >= 21, "indexed at the end");
      assertTrue(files.get(0).getFileName().toString().matches("sievecrawl-\\d{17}-00001\\.warc\\.gz"), files.toString());
      int responses = 0;
      try (org.netpreserve.jwarc.WarcReader reader = new org.netpreserve.jwarc.WarcReader(files.get(0))) {
        for (org.netpreserve.jwarc.WarcRecord record : reader) {
          responses += record instanceof org.netpreserve.jwarc.WarcResponse ? 1 : 0;
        }
      }
      assertEquals(42, responses, "20 pages, their 20 images and style sheet (page requisites), and robots.txt");
      assertTrue(cmd.err().contains("WARC files:      42 exchanges recorded in " + warc), cmd.err());
      assertTrue(cmd.err().contains("crawl completed: 20 pages and 21 requisites"), cmd.err());
    }
  }

  @Test
  void extraHeadersAreSentAndRecordedButTheirCredentialsAreShownNowhereUnlessKept() throws IOException {
    try (SyntheticSite site = SyntheticSite.start(5, 2)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Path warc = dir.resolve("warc");
      Path log = dir.resolve("log");
      Cmd cmd = Cmd.run("crawl", seeds.toString(), "-o", dir.resolve("out.jsonl").toString(), "--log-file",
          log.toString(), "--delay", "0ms", "--warc", warc.toString(), "-H", "X-Team: archive",
          "--header", "Authorization: Bearer s3cret");
      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
      String logged = Files.readString(log);
      assertTrue(logged.contains("fetch.header = \"Authorization: <hidden>\"    # --header"), logged);
      assertTrue(logged.contains("fetch.header = \"X-Team: archive\"    # --header"), logged);
      assertFalse(logged.contains("s3cret") || cmd.err().contains("s3cret"), "never in the log");
      Path file;
      try (var entries = Files.list(warc)) {
        file = entries.filter(f -> f.toString().endsWith(".warc.gz")).findFirst().orElseThrow();
      }
      String warcinfo = null;
      int requestsWithToken = 0;
      try (org.netpreserve.jwarc.WarcReader reader = new org.netpreserve.jwarc.WarcReader(file)) {
        for (org.netpreserve.jwarc.WarcRecord record : reader) {
          if (record instanceof org.netpreserve.jwarc.Warcinfo info) {
            warcinfo = new String(info.body().stream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
          } else if (record instanceof org.netpreserve.jwarc.WarcRequest request) {
            requestsWithToken += request.http().headers().first("Authorization").orElse("").equals("Bearer <hidden>")
                && request.http().headers().first("X-Team").orElse("").equals("archive") ? 1 : 0;
          }
        }
      }
      assertTrue(warcinfo != null && warcinfo.contains("fetch.header: \"Authorization: <hidden>\"\r\n")
          && warcinfo.contains("fetch.header: \"X-Team: archive\"\r\n") && !warcinfo.contains("s3cret"), warcinfo);
      assertEquals(12, requestsWithToken, "5 pages, their images and style sheet (of the seed's origin) and robots.txt,"
          + " each recorded with the token masked");
      String archived = new String(new java.util.zip.GZIPInputStream(Files.newInputStream(file)).readAllBytes(),
          java.nio.charset.StandardCharsets.ISO_8859_1);
      assertFalse(archived.contains("s3cret"), "the token is nowhere in the WARC file");

      Path kept = dir.resolve("warc-kept");
      Cmd keep = Cmd.run("crawl", seeds.toString(), "-o", dir.resolve("kept.jsonl").toString(), "--log-file",
          log.toString(), "--delay", "0ms", "--warc", kept.toString(), "--header", "Authorization: Bearer s3cret",
          "--set", "warc.keep-credentials=true");
      assertEquals(ExitCodes.OK, keep.exitCode(), keep.toString());
      try (var entries = Files.list(kept)) {
        file = entries.filter(f -> f.toString().endsWith(".warc.gz")).findFirst().orElseThrow();
      }
      String asSent = new String(new java.util.zip.GZIPInputStream(Files.newInputStream(file)).readAllBytes(),
          java.nio.charset.StandardCharsets.ISO_8859_1);
      assertEquals(12, asSent.split("\r\nAuthorization: Bearer s3cret\r\n", -1).length - 1, "kept when asked");
    }
  }

  @Test
  void aHeaderTheCrawlerSetsItselfIsRefusedSayingWhichSettingToUse() {
    Cmd cmd = Cmd.run("crawl", "--header", "User-Agent: Mozilla/5.0", "--print-settings");
    assertEquals(ExitCodes.CONFIG, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.err().contains("--header: fetch.header = User-Agent: Mozilla/5.0: the User-Agent header is set by"
        + " fetch.user-agent (and fetch.contact)"), cmd.err());
  }

  @Test
  void anUnusableCaFileStopsTheCrawlBeforeItStartsAndInsecureIsAFlag() {
    Cmd cmd = Cmd.run("crawl", "--set", "fetch.ca-file=no-such-ca.pem", "--print-settings");
    assertEquals(ExitCodes.CONFIG, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.err().contains("fetch.ca-file: " + Path.of("no-such-ca.pem").toAbsolutePath() + " does not exist"),
        cmd.err());
    Cmd insecure = Cmd.run("crawl", "-k", "--print-settings");
    assertEquals(ExitCodes.OK, insecure.exitCode(), insecure.toString());
    assertTrue(insecure.out().contains("fetch.insecure-tls = true    # --insecure"), insecure.out());
  }

  @Test
  void anIncludePatternNoSeedMatchesIsSaidAtTheStart() throws IOException {
    try (SyntheticSite site = SyntheticSite.start(60, 5)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Cmd cmd = Cmd.run("crawl", seeds.toString(), "-o", dir.resolve("pages.jsonl").toString(), "--log-file",
          dir.resolve("log").toString(), "--delay", "0ms", "--include", "/tutorial", "--job",
          dir.resolve("job").toString());
      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
      assertTrue(cmd.err().contains("WARN") && cmd.err().contains("no seed matches crawl.include (/tutorial): the"
          + " seeds are fetched, but of the links found only those it matches; to crawl a part of a site, start from"
          + " a page in it"), cmd.err());

      Cmd matching = Cmd.run("crawl", seeds.toString(), "-o", dir.resolve("more.jsonl").toString(), "--log-file",
          dir.resolve("log").toString(), "--delay", "0ms", "--include", "/", "--max-pages", "5", "--job",
          dir.resolve("job2").toString());
      assertFalse(matching.err().contains("no seed matches"), matching.err());
    }
  }

  @Test
  void includeAndExcludeFlagsAddUpToOnePatternListEach() {
    Cmd cmd = Cmd.run("crawl", "--include", "/docs/", "--include", "\\.html$", "--exclude", "/private/",
        "--print-settings");
    assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.out().contains("crawl.include = \"/docs/ \\.html$\"    # --include"), cmd.out());
    assertTrue(cmd.out().contains("crawl.exclude = \"/private/\"    # --exclude"), cmd.out());
    Cmd spaced = Cmd.run("crawl", "--exclude", "a b", "--print-settings");
    assertEquals(ExitCodes.CONFIG, spaced.exitCode(), spaced.toString());
    assertTrue(spaced.err().contains("--exclude: crawl.exclude = a b: a pattern must not be empty or hold white space"),
        spaced.err());
    Cmd broken = Cmd.run("crawl", "--exclude", "(", "--print-settings");
    assertEquals(ExitCodes.CONFIG, broken.exitCode(), broken.toString());
    assertTrue(broken.err().contains("--exclude: crawl.exclude = (: invalid regular expression '('"), broken.err());
  }

  @Test
  void aRelativeWarcDirectoryIsRecordedAbsoluteSoAResumeFromElsewhereFindsIt() {
    Cmd cmd = Cmd.run("crawl", "--warc", "archive", "--print-settings");
    assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.out().contains("warc.dir = \"" + Path.of("archive").toAbsolutePath() + "\"    # --warc"), cmd.out());
  }

  @Test
  void planPrintsTheSizingOfTheSeedExamples() {
    Cmd cmd = Cmd.run("plan", "-n", "10M", "-p", "1%");
    assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.out().contains("classical Bloom filter: 95,850,584 bits = 11.98MB, k = 7, 9.59 bits per URL"), cmd.out());
    assertTrue(cmd.out().contains("expected false-positive rate at n:"), cmd.out());
    assertTrue(cmd.out().contains("expected false-positive rate at 2n:"), cmd.out());
    assertTrue(cmd.out().contains("exact store (filter.confirm): 8 bytes on disk per URL admitted, 80MB at n"),
        cmd.out());
    Cmd big = Cmd.run("plan", "-n", "1e9", "-p", "0.0001");
    assertTrue(big.out().contains("19,170,116,755 bits = 2.40GB, k = 13"), big.out());
    Cmd defaultP = Cmd.run("plan", "-n", "10M");
    assertEquals(ExitCodes.OK, defaultP.exitCode(), "p has a default here as everywhere: " + defaultP);
    assertTrue(defaultP.out().contains("at p = 0.001\n"), defaultP.out());
  }

  @Test
  void benchReportsEveryPageFetchedOnceAndLogsItsTable() throws IOException {
    Cmd cmd = Cmd.run("bench", "--pages", "300", "--fan-out", "5", "--levels", "4", "--log-file",
        dir.resolve("log").toString());
    assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.out().lines().anyMatch(l -> l.startsWith("4 ") && l.contains("300") && l.endsWith("yes")), cmd.out());
    String log = Files.readString(dir.resolve("log"));
    assertTrue(log.contains("synthetic site: 300 pages"), "the log has what bench printed: " + log);
    assertTrue(log.lines().anyMatch(l -> l.contains(" 4 ") && l.contains("300") && l.endsWith("yes")), log);
    assertFalse(cmd.err().contains("synthetic site"), "once on the console: " + cmd.err());
  }

  /** A broad bench run shows its CPU per page with the JIT compiler's and the collector's seconds apart. */
  @Test
  @org.junit.jupiter.api.condition.EnabledOnOs(org.junit.jupiter.api.condition.OS.LINUX) // /proc/self/task
  void broadBenchShowsCpuPerPageWithJitAndGcApart() {
    Cmd cmd = Cmd.run("bench", "--sites", "20", "--pages-per-site", "5", "--fan-out", "3", "--seconds", "10",
        "--delay", "0ms", "--log-file", dir.resolve("log").toString());
    assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.out().lines().anyMatch(l -> l.matches(
        " {2}CPU \\d+\\.\\d{3} ms/page \\(crawler and server\\): JIT \\d+\\.\\d{2} s, GC \\d+\\.\\d{2} s, rest -?\\d+\\.\\d{3}"
            + " ms/page")), cmd.out());
  }

  @Test
  void aCrawlWhoseSeedsCannotBeReachedExitsWithItsOwnCodeAndSaysWhy() throws IOException {
    int closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:" + closed + "/\n");
    Cmd cmd = Cmd.run("crawl", seeds.toString(), "--job", dir.resolve("job").toString(), "-o",
        dir.resolve("out.jsonl").toString(), "--log-file", dir.resolve("log").toString());
    assertEquals(ExitCodes.NOTHING_REACHED, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.err().contains("WARN: giving up http://127.0.0.1:" + closed + ": connection refused"), cmd.err());
    assertTrue(cmd.err().contains("origins given up: http://127.0.0.1:" + closed + " (connection refused"), cmd.err());
    assertTrue(cmd.err().contains("sievecrawl: nothing was fetched: 1 origins given up (see above)"), cmd.err());
    assertTrue(cmd.err().contains("polite: 1 request at a time per site, 1s apart or more, as each server answers;"
        + " --delay 0ms --host-concurrency 8 for your own servers"), "the pace, said once at the start: " + cmd.err());
    for (String zero : List.of("pages by status", "not followed:", "URL filter:", "URLs admitted:")) {
      assertFalse(cmd.err().contains(zero), "a short summary, without its zeros: " + cmd.err());
    }

    Cmd verbose = Cmd.run("crawl", seeds.toString(), "--job", dir.resolve("job2").toString(), "-o",
        dir.resolve("out2.jsonl").toString(), "--log-file", dir.resolve("log").toString(), "-v");
    assertEquals(ExitCodes.NOTHING_REACHED, verbose.exitCode(), verbose.toString());
    assertFalse(verbose.err().contains("politeness.delay = "), "-v shows no settings: " + verbose.err());
    assertTrue(verbose.err().contains("settings: in " + dir.resolve("log") + " ('--print-settings' prints them)"),
        verbose.err());
    assertTrue(Files.readString(dir.resolve("log")).contains("politeness.delay = 1s"), "the log file has them");
  }

  @Test
  void everyOutputIsCreatedButNotTheFoldersAboveIt() throws IOException {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:9/\n");
    for (List<String> output : List.of(List.of("-o", "nodir/x.jsonl"), List.of("--warc", "nodir2/warc"),
        List.of("--log-file", "nodir3/sievecrawl.log"), List.of("--job", "nodir4/job"))) {
      List<String> args = new java.util.ArrayList<>(List.of("crawl", seeds.toString(), "-o",
          dir.resolve("out.jsonl").toString(), "--log-file", dir.resolve("log").toString()));
      args.addAll(output.stream().map(a -> a.contains("/") ? dir.resolve(a).toString() : a).toList());
      Cmd cmd = Cmd.run(args.toArray(String[]::new));
      assertEquals(ExitCodes.OUTPUT, cmd.exitCode(), cmd.toString());
      String folder = dir.resolve(output.get(1)).getParent().toString();
      assertTrue(cmd.err().contains("folder " + folder + " does not exist"), cmd.toString());
      assertEquals(1, cmd.err().lines().count(), cmd.toString());
      assertFalse(Files.exists(Path.of(folder)), "nothing made: " + output);
    }
  }

  @Test
  void aCrawlWhoseSeedsRobotsTxtDisallowsSaysSo() throws IOException {
    com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      byte[] body = "User-agent: *\nDisallow: /\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/robots.txt") ? 200 : 500, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    try {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:" + server.getAddress().getPort()
          + "/\n");
      Cmd cmd = Cmd.run("crawl", seeds.toString(), "--job", dir.resolve("job").toString(), "-o",
          dir.resolve("out.jsonl").toString(), "--log-file", dir.resolve("log").toString());
      assertEquals(ExitCodes.NOTHING_REACHED, cmd.exitCode(), cmd.toString());
      assertTrue(cmd.err().contains("sievecrawl: nothing was fetched: robots.txt disallowed the only URL\n"),
          cmd.err());
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aUrlWhereTheSeedFileGoesIsTheSeedAndVerboseShowsOneLinePerPageAndTheSummaryOnce() throws IOException {
    try (SyntheticSite site = SyntheticSite.start(5, 2)) {
      Cmd cmd = Cmd.run("crawl", site.rootUrl(), "--job", dir.resolve("job").toString(), "-o",
          dir.resolve("out.jsonl").toString(), "--log-file", dir.resolve("log").toString(), "--delay", "0ms", "-v");
      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
      assertEquals(5, Files.readAllLines(dir.resolve("out.jsonl")).size());
      assertTrue(cmd.err().lines().anyMatch(l -> l.matches("DEBUG: 200 \\d+ms [0-9.]+KB " + site.rootUrl())),
          cmd.err());
      assertEquals(1, cmd.err().lines().filter(l -> l.contains("crawl completed: 5 pages")).count(), cmd.err());
      assertTrue(cmd.err().lines().noneMatch(l -> l.contains("crawlercommons")), "no library internals");
    }
  }

  @Test
  void aLogFileThatCannotBeWrittenIsReportedWithWhy() throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/full")), "needs /dev/full (Linux)");
    try (SyntheticSite site = SyntheticSite.start(3, 1)) {
      Cmd cmd = Cmd.run("crawl", site.rootUrl(), "--job", dir.resolve("job").toString(), "-o",
          dir.resolve("out.jsonl").toString(), "--log-file", "/dev/full", "--delay", "0ms");
      assertEquals(ExitCodes.OUTPUT, cmd.exitCode(), cmd.toString());
      assertTrue(cmd.err().contains("cannot write the log file /dev/full: No space left on device"), cmd.err());
    }
  }

  @Test
  void resultsThatCannotBeWrittenEndTheCrawlSayingWhy() throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/full")), "needs /dev/full (Linux)");
    try (SyntheticSite site = SyntheticSite.start(3, 1)) {
      Cmd cmd = Cmd.run("crawl", site.rootUrl(), "--job", dir.resolve("job").toString(), "-o", "/dev/full",
          "--log-file", dir.resolve("log").toString(), "--delay", "0ms");
      assertEquals(ExitCodes.OUTPUT, cmd.exitCode(), cmd.toString());
      assertTrue(cmd.err().contains("cannot write results to /dev/full: No space left on device"), cmd.err());
    }
  }

  @Test
  void theSummaryAsJsonTheBusiestOriginsAndTheUrlsLeftOut() throws IOException {
    try (SyntheticSite site = SyntheticSite.start(30, 4)) {
      Path stats = dir.resolve("stats.json");
      Path skipped = dir.resolve("skipped.jsonl");
      Cmd cmd = Cmd.run("crawl", site.rootUrl(), "--job", dir.resolve("job").toString(), "-o",
          dir.resolve("out.jsonl").toString(), "--log-file", dir.resolve("log").toString(), "--delay", "0ms",
          "--stats-json", stats.toString(), "--hosts", "5", "--log-skipped", skipped.toString());
      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
      ObjectMapper json = new ObjectMapper();
      JsonNode doc = json.readTree(stats.toFile());
      assertEquals("completed", doc.get("end").asText());
      java.time.Instant started = java.time.Instant.parse(doc.get("startedAt").asText());
      java.time.Instant ended = java.time.Instant.parse(doc.get("endedAt").asText());
      assertEquals(doc.get("seconds").asDouble(), java.time.Duration.between(started, ended).toMillis() / 1000.0, 0.001);
      String rate = doc.get("pagesPerSecond").asText();
      assertTrue(rate.length() - rate.indexOf('.') - 1 <= 3, "a rate to the thousandth: " + rate);
      assertEquals(30, doc.get("fetched").asInt());
      assertEquals(30, doc.get("byStatusClass").get("2xx").asInt());
      JsonNode origin = doc.get("origins").get(0);
      assertEquals(site.rootUrl().replaceAll("/$", ""), origin.get("origin").asText());
      assertEquals(30, origin.get("pages").asInt());
      assertEquals("allowed", origin.get("robots").asText());
      assertTrue(cmd.err().contains(site.rootUrl().replaceAll("/$", "")), "the origins table: " + cmd.err());
      List<String> lines = Files.readAllLines(skipped);
      assertTrue(lines.size() > 30, "every link to a page already seen is listed: " + lines.size());
      JsonNode first = json.readTree(lines.get(0));
      assertEquals("seen", first.get("reason").asText());
      assertTrue(first.get("referrer").asText().startsWith(site.rootUrl()), lines.get(0));
    }
  }
}

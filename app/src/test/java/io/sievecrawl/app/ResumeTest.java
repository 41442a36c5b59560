package io.sievecrawl.app;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.crawler.bench.SyntheticSite;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sievecrawl resume}: what it continues, what it refuses, and what it repairs. */
class ResumeTest {
  @TempDir
  Path dir;
  private ResumeDir crawls;

  @BeforeEach
  void inDir() {
    crawls = new ResumeDir(dir);
  }

  @Test
  void aPageLimitTheCrawlHasReachedAlreadyIsRefusedWithThePagesItHas() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(200, 5)) {
      Path job = dir.resolve("job");
      Cmd first = Cmd.run("crawl", crawls.seeds(site).toString(), "--job", job.toString(), "-o",
          dir.resolve("out.jsonl").toString(), "--log-file", crawls.log(), "--delay", "0ms", "--max-pages", "31");
      assertEquals(ExitCodes.OK, first.exitCode(), first.toString());
      Cmd resumed = Cmd.run("resume", job.toString(), "--log-file", crawls.log(), "--max-pages", "25");
      assertEquals(ExitCodes.CONFIG, resumed.exitCode(), resumed.toString());
      assertEquals("sievecrawl: the crawl in " + job + " already has 31 pages, and --max-pages (crawl.max-pages)"
          + " counts every run of a crawl: give more than 31 to fetch more (56 for 25 more pages), or 0 for no"
          + " limit\n", resumed.err());
      assertEquals(31, Files.readAllLines(dir.resolve("out.jsonl")).size(), "nothing fetched, nothing written");
      Cmd more = Cmd.run("resume", job.toString(), "--log-file", crawls.log(), "--max-pages", "56", "--delay", "0ms");
      assertEquals(ExitCodes.OK, more.exitCode(), more.toString());
      assertEquals(56, Files.readAllLines(dir.resolve("out.jsonl")).size());
    }
  }

  @Test
  void aTornResultsLineIsCutOffOnResume() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(100, 5)) {
      Path results = dir.resolve("results.jsonl");
      Path job = dir.resolve("job");
      Cmd first = Cmd.run("crawl", crawls.seeds(site).toString(), "--job", job.toString(), "-o", results.toString(),
          "--log-file", crawls.log(), "--max-pages", "40", "--delay", "0ms");
      assertEquals(ExitCodes.OK, first.exitCode(), first.toString());
      assertTrue(first.err().contains("crawl page limit: 40 pages"), first.err());
      Files.writeString(results, "{\"url\":\"http://torn", java.nio.file.StandardOpenOption.APPEND);

      Cmd resumed = Cmd.run("resume", job.toString(), "--log-file", crawls.log(), "--max-pages", "0");
      assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.toString());
      assertEquals(100, ResultRecords.urls(results).size(), "parses line by line: no torn line left");
      assertEquals(100, Files.readAllLines(results).size());
      assertTrue(Files.readString(dir.resolve("sievecrawl.log")).contains("cut off a torn last line (19 bytes)"));
    }
  }

  @Test
  void aResumedCrawlStillSendsTheCookiesASiteSet() throws Exception {
    WireMockServer server = new WireMockServer(options().dynamicPort());
    server.start();
    try {
      String site = "http://127.0.0.1:" + server.port();
      server.stubFor(get(urlEqualTo("/")).willReturn(aResponse().withHeader("Content-Type", "text/html")
          .withHeader("Set-Cookie", "session=abc; Path=/; HttpOnly").withBody("<a href=/members>members</a>")));
      server.stubFor(get(urlEqualTo("/members")).willReturn(aResponse().withStatus(403)));
      server.stubFor(get(urlEqualTo("/members")).withCookie("session", equalTo("abc")).atPriority(1)
          .willReturn(aResponse().withHeader("Content-Type", "text/html").withBody("members only")));
      Path results = dir.resolve("results.jsonl");
      Path job = dir.resolve("job");
      Files.writeString(dir.resolve("seeds.txt"), site + "/\n");
      Cmd first = Cmd.run("crawl", dir.resolve("seeds.txt").toString(), "--job", job.toString(), "-o",
          results.toString(), "--log-file", crawls.log(), "--max-pages", "1", "--delay", "0ms", "--set",
          "robots.obey=false");
      assertEquals(ExitCodes.OK, first.exitCode(), first.toString());
      String cookies = Files.readString(job.resolve("cookies.txt"));
      assertTrue(cookies.contains("#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tabc\n"), cookies);

      Cmd resumed = Cmd.run("resume", job.toString(), "--log-file", crawls.log(), "--max-pages", "0");
      assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.toString());
      String members = Files.readAllLines(results).stream().filter(l -> l.contains("/members\"")).findFirst()
          .orElseThrow();
      assertTrue(members.contains("\"status\":200"), members);
    } finally {
      server.stop();
    }
  }

  @Test
  void withoutAnExactStoreNAndPCannotChange() throws Exception {
    Path job = crawls.stoppedCrawl("--set", "filter.confirm=false");
    Cmd cmd = Cmd.run("resume", job.toString(), "-n", "5M");
    assertEquals(ExitCodes.CONFIG, cmd.exitCode(), cmd.toString());
    assertEquals("sievecrawl: filter.n cannot change when a crawl resumes: the crawl in " + job + " was sized for"
        + " n = 100,000 (given --expected-urls: 5,000,000)\n", cmd.err());
    Cmd p = Cmd.run("resume", job.toString(), "-p", "0.01");
    assertEquals(ExitCodes.CONFIG, p.exitCode(), p.toString());
    Cmd confirm = Cmd.run("resume", job.toString(), "--set", "filter.confirm=true");
    assertEquals(ExitCodes.CONFIG, confirm.exitCode(), confirm.toString());
    assertEquals("sievecrawl: filter.confirm cannot change when a crawl resumes: the crawl in " + job + " was created"
        + " with it off (given --set: true)\n", confirm.err());
  }

  @Test
  void aConfirmedCrawlResumesWithANewNRebuiltFromItsStoreAndKeepsIt() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(300, 6)) {
      Path job = dir.resolve("job");
      Path results = dir.resolve("results.jsonl");
      Cmd first = Cmd.run("crawl", crawls.seeds(site).toString(), "--job", job.toString(), "-o", results.toString(),
          "--log-file", crawls.log(), "--max-pages", "40", "-n", "50", "--set", "filter.grow=false", "--delay", "0ms");
      assertEquals(ExitCodes.OK, first.exitCode(), first.toString());
      Cmd resumed = Cmd.run("resume", job.toString(), "-n", "5M", "--max-pages", "0", "--log-file", crawls.log());
      assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.toString());
      assertEquals(300, site.pagesServedOnce(), "every page once, across the two runs");
      assertEquals(0, site.repeatedRequests());
      assertEquals(300, Files.readAllLines(results).size());
      assertTrue(Files.readString(Path.of(crawls.log())).contains("rebuilt the URL filter from its exact store for"
          + " n = 5,000,000, p = 0.001 (was n = 50, p = 0.001)"), Files.readString(Path.of(crawls.log())));
      assertTrue(resumed.err().contains("capacity n = 5,000,000"), resumed.err());
      assertTrue(Files.readString(job.resolve("manifest.json")).contains("\"n\" : 5000000"));
      assertTrue(Files.readString(job.resolve("settings.conf")).contains("\nfilter.n = 5M\n"));
      Cmd again = Cmd.run("resume", job.toString(), "--log-file", crawls.log()); // the new n is the crawl's now
      assertEquals(ExitCodes.OK, again.exitCode(), again.toString());
      assertTrue(again.err().contains("is complete: nothing to resume"), again.err());
      Cmd off = Cmd.run("resume", job.toString(), "--set", "filter.confirm=false");
      assertEquals(ExitCodes.CONFIG, off.exitCode(), off.toString());
    }
  }

  @Test
  void theScopeCannotChangeEither() throws Exception {
    Path job = crawls.stoppedCrawl();
    Cmd any = Cmd.run("resume", job.toString(), "--scope", "any");
    assertEquals(ExitCodes.CONFIG, any.exitCode(), any.toString());
    assertEquals("sievecrawl: crawl.scope cannot change when a crawl resumes: it decided which links the crawl in "
        + job + " kept, and it has host (given --scope: any); start a new crawl for another scope\n", any.err());
    Cmd include = Cmd.run("resume", job.toString(), "--include", "/docs/");
    assertEquals(ExitCodes.CONFIG, include.exitCode(), include.toString());
    assertTrue(include.err().contains("crawl.include cannot change") && include.err().contains("it has none"),
        include.err());
    Cmd sessions = Cmd.run("resume", job.toString(), "--set", "traps.strip-session-ids=false");
    assertEquals(ExitCodes.CONFIG, sessions.exitCode(), sessions.toString());
    Cmd same = Cmd.run("resume", job.toString(), "--scope", "host", "--max-pages", "5", "--log-file", crawls.log());
    assertFalse(same.err().contains("cannot change"), "the recorded value given again is no change: " + same);
  }

  @Test
  void aMissingOrForeignDirectoryIsRefused() throws IOException {
    Cmd missing = Cmd.run("resume", dir.resolve("nope").toString());
    assertEquals(ExitCodes.JOB, missing.exitCode());
    assertEquals("sievecrawl: " + dir.resolve("nope") + ": no such crawl directory\n", missing.err());

    Files.writeString(dir.resolve("notes.txt"), "hello");
    Cmd foreign = Cmd.run("resume", dir.toString());
    assertEquals(ExitCodes.JOB, foreign.exitCode());
    assertEquals("sievecrawl: " + dir + " is not a sievecrawl crawl directory (no manifest.json)\n", foreign.err());
  }

  @Test
  void aManifestOfAnotherVersionIsRefused() throws Exception {
    Path job = crawls.stoppedCrawl();
    Path manifest = job.resolve("manifest.json");
    String written = Files.readString(manifest);
    Files.writeString(manifest, written.replace("\"version\" : 3", "\"version\" : 4"));
    Cmd cmd = Cmd.run("resume", job.toString());
    assertEquals(ExitCodes.JOB, cmd.exitCode(), cmd.toString());
    assertEquals("sievecrawl: " + manifest + ": crawl directory format version 4, but this build reads versions 2 to"
        + " 3\n", cmd.err());

    Files.writeString(manifest, written.replace("\"version\" : 3", "\"version\" : 1")); // before queues per origin
    Cmd old = Cmd.run("resume", job.toString());
    assertEquals(ExitCodes.JOB, old.exitCode(), old.toString());
    assertEquals("sievecrawl: " + manifest + ": crawl directory format version 1, but this build reads versions 2 to"
        + " 3; it was written by an earlier sievecrawl: finish it with that build, or start the crawl again in a new"
        + " directory\n", old.err());
  }

  @Test
  void aCrawlDirectoryOfTheBuildBeforeRequisitesResumesAndIsWrittenAsVersion3() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(50, 5)) {
      Path job = dir.resolve("job");
      Cmd first = Cmd.run("crawl", crawls.seeds(site).toString(), "--job", job.toString(), "-o",
          dir.resolve("results.jsonl").toString(), "--log-file", crawls.log(), "--max-pages", "5", "--delay", "0ms");
      assertEquals(ExitCodes.OK, first.exitCode(), first.toString());
      Path manifest = job.resolve("manifest.json");
      // A version-2 directory is this one but for the number: version 3 added requisite tasks, which it cannot hold.
      Files.writeString(manifest, Files.readString(manifest).replace("\"version\" : 3", "\"version\" : 2"));
      Cmd resumed = Cmd.run("resume", job.toString(), "--max-pages", "0", "--log-file", crawls.log());
      assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.toString());
      assertTrue(Files.readString(manifest).contains("\"version\" : 3"), Files.readString(manifest));
      assertEquals(50, site.pagesServedOnce(), "every page, once");
    }
  }

  @Test
  void aDamagedFrontierSegmentIsRefusedNamingTheFile() throws Exception {
    Path job = crawls.stoppedCrawl();
    Path segment;
    try (Stream<Path> files = Files.list(job.resolve("frontier"))) {
      segment = files.filter(f -> f.getFileName().toString().startsWith("log-")).sorted().findFirst().orElseThrow();
    }
    try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
      file.seek(40);
      file.write(0x7f);
      file.write(0x7f);
    }
    // past the 5 pages it has
    Cmd cmd = Cmd.run("resume", job.toString(), "--log-file", crawls.log(), "--max-pages", "0");
    assertEquals(ExitCodes.JOB, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.err().startsWith("sievecrawl: " + segment + " at byte"), cmd.err());
    assertEquals(1, cmd.err().lines().count(), "one line");
  }

  @Test
  void aNewCrawlRefusesToOverwriteResultsOrReuseACrawlDirectory() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(10, 2)) {
      Path results = Files.writeString(dir.resolve("keep.jsonl"), "{\"precious\":true}\n");
      Cmd refused = Cmd.run("crawl", crawls.seeds(site).toString(), "--job", dir.resolve("a").toString(), "-o",
          results.toString(), "--log-file", crawls.log());
      assertEquals(ExitCodes.OUTPUT, refused.exitCode(), refused.toString());
      assertTrue(refused.err().contains("results file " + results + " exists (18 bytes)"), refused.err());
      assertEquals("{\"precious\":true}\n", Files.readString(results), "untouched");
      assertFalse(Files.exists(dir.resolve("a")), "nothing created");

      Cmd badN = Cmd.run("crawl", crawls.seeds(site).toString(), "-o", results.toString(), "--overwrite", "-n", "0");
      assertEquals(ExitCodes.CONFIG, badN.exitCode(), badN.toString());
      assertEquals("{\"precious\":true}\n", Files.readString(results), "not emptied before validation passed");

      Cmd overwritten = Cmd.run("crawl", crawls.seeds(site).toString(), "--job", dir.resolve("a").toString(), "-o",
          results.toString(), "--overwrite", "--log-file", crawls.log(), "--delay", "0ms");
      assertEquals(ExitCodes.OK, overwritten.exitCode(), overwritten.toString());
      assertEquals(10, ResultRecords.urls(results).size());

      Cmd reuse = Cmd.run("crawl", crawls.seeds(site).toString(), "--job", dir.resolve("a").toString(), "-o",
          dir.resolve("other.jsonl").toString(), "--log-file", crawls.log());
      assertEquals(ExitCodes.JOB, reuse.exitCode(), reuse.toString());
      assertTrue(reuse.err().contains(" holds a completed crawl: choose another directory for a new one"),
          "a completed crawl has nothing to resume: " + reuse.err());
    }
  }

  @Test
  void aNewCrawlInTheDirectoryOfAStoppedOneIsToldToResumeIt() throws Exception {
    Path job = crawls.stoppedCrawl();
    Cmd again = Cmd.run("crawl", "http://127.0.0.1:1/", "--job", job.toString(), "-o",
        dir.resolve("other.jsonl").toString(), "--log-file", crawls.log());
    assertEquals(ExitCodes.JOB, again.exitCode(), again.toString());
    assertTrue(again.err().contains(job + " holds a crawl already: continue it with 'sievecrawl resume " + job),
        again.err());
  }
}

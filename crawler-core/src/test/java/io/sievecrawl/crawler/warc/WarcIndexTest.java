package io.sievecrawl.crawler.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.Crawler;
import io.sievecrawl.crawler.bench.SyntheticSite;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.sieve.testing.FakeClock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

/**
 * The CDXJ index of a crawl's WARC files against jwarc's own cdx tool, each line's offset and length read back as
 * exactly one record, and the WACZ package's digests, index and page list checked from the zip.
 */
class WarcIndexTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  /** Two runs into one WARC directory (a crawl and its resume), small files so that there are several. */
  private List<CrawlResult> crawlTwice(Path warcs) throws IOException {
    List<CrawlResult> results = new ArrayList<>();
    try (SyntheticSite site = SyntheticSite.start(60, 4)) {
      for (long pages : List.of(25L, 0L)) {
        CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO)
            .set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 10_000L).set(Setting.MAX_PAGES, pages).build();
        ConcurrentLinkedQueue<CrawlResult> sink = new ConcurrentLinkedQueue<>();
        try (WarcArchive warc = WarcArchive.open(warcs, "test", 20_000, Map.of(), new FakeClock())) {
          Crawler.builder(settings, sink::add).recorder(warc).build().run(List.of(site.rootUrl()));
        }
        results.addAll(sink);
      }
    }
    return results;
  }

  @Test
  void theIndexIsJwarcsCdxOfTheFilesSortedAndEachLineReadsBackItsRecord() throws Exception {
    Path warcs = dir.resolve("warc");
    crawlTwice(warcs);
    List<Path> files = WarcIndex.closedWarcs(warcs);
    assertTrue(files.size() >= 3, "several files: " + files.size());
    List<String> index = Files.readAllLines(warcs.resolve(WarcIndex.NAME));
    assertEquals(index.stream().sorted().toList(), index, "sorted by SURT key, then time");
    assertEquals(jwarcCdx(files).stream().map(WarcIndex::withWebrecorderKey).sorted().toList(), index,
        "what jwarc's cdx tool says of the files, keyed as Webrecorder keys them");

    for (String line : index) {
      JsonNode fields = JSON.readTree(line.substring(line.indexOf('{')));
      Path file = warcs.resolve(fields.get("filename").asText());
      long offset = fields.get("offset").asLong();
      int length = fields.get("length").asInt();
      byte[] member = new byte[length];
      try (FileChannel channel = FileChannel.open(file)) {
        channel.read(ByteBuffer.wrap(member), offset);
      }
      try (WarcReader reader = new WarcReader(Channels.newChannel(new java.io.ByteArrayInputStream(member)))) {
        WarcRecord record = reader.next().orElseThrow();
        assertEquals(fields.get("url").asText(), ((org.netpreserve.jwarc.WarcTargetRecord) record).target(), line);
        record.body().consume();
        assertFalse(reader.next().isPresent(), "one gzip member, one record: " + line);
      }
    }
  }

  @Test
  void aKeysBytesThatAreNoUtf8AreEscapedAsWebrecordersIndexerEscapesThem() {
    String url = "http://example.com/caf%FC?q=caf%E9&a=%C3%A9&pct=100%25";
    String jwarcKey = org.netpreserve.jwarc.URIs.toNormalizedSurt(url);
    assertEquals("com,example)/caf%25fc?a=%c3%a9&pct=100%25&q=caf%25e9", jwarcKey, "jwarc alone");
    String line = jwarcKey + " 20261128050000 {\"url\": \"" + url + "\"}";
    assertEquals("com,example)/caf%fc?a=%c3%a9&pct=100%25&q=caf%e9 20261128050000 {\"url\": \"" + url + "\"}",
        WarcIndex.withWebrecorderKey(line), "as the Python surt module writes it");
    assertEquals("com,example)/a 1 {}", WarcIndex.withWebrecorderKey("com,example)/a 1 {}"));
  }

  @Test
  void aWaczHoldsTheFilesWithVerifiableDigestsTheIndexAndEveryPage() throws Exception {
    Path warcs = dir.resolve("warc");
    List<CrawlResult> results = crawlTwice(warcs);
    Path wacz = dir.resolve("crawl.wacz");
    WaczPackage.Summary summary = WaczPackage.write(warcs, wacz, "sievecrawl test", new FakeClock());
    assertFalse(Files.exists(dir.resolve("crawl.wacz.tmp")));
    try (ZipFile zip = new ZipFile(wacz.toFile())) {
      JsonNode datapackage = JSON.readTree(zip.getInputStream(zip.getEntry("datapackage.json")));
      assertEquals("1.1.1", datapackage.get("wacz_version").asText());
      JsonNode digest = JSON.readTree(zip.getInputStream(zip.getEntry("datapackage-digest.json")));
      assertEquals("sha256:" + sha256(zip, zip.getEntry("datapackage.json")), digest.get("hash").asText());
      Set<String> paths = new HashSet<>();
      for (JsonNode resource : datapackage.get("resources")) {
        ZipEntry entry = zip.getEntry(resource.get("path").asText());
        paths.add(entry.getName());
        assertEquals("sha256:" + sha256(zip, entry), resource.get("hash").asText(), entry.getName());
        assertEquals(entry.getSize(), resource.get("bytes").asLong(), entry.getName());
        if (entry.getName().startsWith("archive/")) {
          assertEquals(ZipEntry.STORED, entry.getMethod(), "WARC files are stored as they are");
          assertEquals(Files.size(warcs.resolve(entry.getName().substring(8))), entry.getSize());
        }
      }
      assertEquals(summary.warcFiles() + 2, paths.size());
      assertTrue(paths.containsAll(Set.of("indexes/index.cdxj", "pages/pages.jsonl")), paths.toString());
      assertEquals(Files.readString(warcs.resolve(WarcIndex.NAME)),
          new String(zip.getInputStream(zip.getEntry("indexes/index.cdxj")).readAllBytes(), StandardCharsets.UTF_8));

      List<String> pages = new String(zip.getInputStream(zip.getEntry("pages/pages.jsonl")).readAllBytes(),
          StandardCharsets.UTF_8).lines().toList();
      assertEquals("json-pages-1.0", JSON.readTree(pages.get(0)).get("format").asText());
      Map<String, String> listed = new java.util.HashMap<>();
      for (String page : pages.subList(1, pages.size())) {
        JsonNode line = JSON.readTree(page);
        assertEquals(null, listed.put(line.get("url").asText(), line.path("title").asText(null)), page);
      }
      Map<String, String> fetched = new java.util.HashMap<>();
      for (CrawlResult r : results) {
        if (r.status() == 200 && "text/html".equals(r.contentType())) {
          fetched.put(r.url(), r.title());
        }
      }
      assertEquals(fetched, listed, "every page answered 200 with HTML, once, with the title its crawl recorded");
      JsonNode first = null;
      for (String page : pages.subList(1, pages.size())) {
        JsonNode node = JSON.readTree(page);
        if (first == null || node.get("ts").asText().compareTo(first.get("ts").asText()) < 0) {
          first = node;
        }
      }
      assertEquals(first.get("url").asText(), datapackage.get("mainPageURL").asText(),
          "without a seed, the page captured first");
      assertEquals("warc", datapackage.get("title").asText());
    }
    Path described = dir.resolve("described.wacz");
    String seed = results.get(0).url();
    WaczPackage.write(warcs, described, "sievecrawl test", new FakeClock(),
        new WaczPackage.Description("my-crawl", seed));
    try (ZipFile zip = new ZipFile(described.toFile())) {
      JsonNode datapackage = JSON.readTree(zip.getInputStream(zip.getEntry("datapackage.json")));
      assertEquals("my-crawl", datapackage.get("title").asText());
      assertEquals(seed, datapackage.get("mainPageURL").asText());
      assertTrue(datapackage.get("mainPageDate").asText().startsWith("20"), datapackage.toString());
    }
  }

  @Test
  void theWarcFilesOfSeveralDirectoriesGoIntoOnePackage() throws Exception {
    Path first = dir.resolve("warc-1");
    Path second = dir.resolve("warc-2");
    List<CrawlResult> results = crawlTwice(first);
    try (SyntheticSite other = SyntheticSite.start(5, 2)) {
      CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO)
          .set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L).build();
      try (WarcArchive warc = WarcArchive.open(second, "other", 20_000, Map.of(), new FakeClock())) {
        Crawler.builder(settings, results::add).recorder(warc).build().run(List.of(other.rootUrl()));
      }
    }
    Path wacz = dir.resolve("both.wacz");
    WaczPackage.Summary summary = WaczPackage.write(List.of(first, second), wacz, "sievecrawl test", new FakeClock(),
        WaczPackage.Description.DEFAULT);
    assertEquals(WarcIndex.closedWarcs(first).size() + WarcIndex.closedWarcs(second).size(), summary.warcFiles());
    try (ZipFile zip = new ZipFile(wacz.toFile())) {
      List<String> index = new String(zip.getInputStream(zip.getEntry("indexes/index.cdxj")).readAllBytes(),
          StandardCharsets.UTF_8).lines().toList();
      List<String> both = new ArrayList<>(Files.readAllLines(first.resolve(WarcIndex.NAME)));
      both.addAll(Files.readAllLines(second.resolve(WarcIndex.NAME)));
      assertEquals(both.stream().sorted().toList(), index, "both indexes, merged");
      long pages = results.stream().filter(r -> r.status() == 200 && "text/html".equals(r.contentType()))
          .map(CrawlResult::url).distinct().count();
      assertEquals(pages, summary.pages(), "each page once");
    }
    Files.copy(WarcIndex.closedWarcs(first).get(0), second.resolve(WarcIndex.closedWarcs(first).get(0).getFileName()));
    IOException twice = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
        () -> WaczPackage.write(List.of(first, second), dir.resolve("clash.wacz"), "sievecrawl test",
            new FakeClock(), WaczPackage.Description.DEFAULT));
    assertTrue(twice.getMessage().contains("two WARC files are named"), twice.getMessage());
    assertFalse(Files.exists(dir.resolve("clash.wacz")));
  }

  private static String sha256(ZipFile zip, ZipEntry entry) throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    try (InputStream in = zip.getInputStream(entry)) {
      sha.update(in.readAllBytes());
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  /** {@code jwarc cdx --format CDXJ --no-header FILES}, run as a user would, in a child JVM. */
  private static List<String> jwarcCdx(List<Path> files) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "org.netpreserve.jwarc.tools.WarcTool", "cdx", "--format",
        "CDXJ", "--no-header"));
    files.forEach(f -> command.add(f.toString()));
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
        .directory(files.get(0).getParent().toFile()).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor());
    return out.lines().filter(l -> !l.isEmpty()).toList();
  }
}

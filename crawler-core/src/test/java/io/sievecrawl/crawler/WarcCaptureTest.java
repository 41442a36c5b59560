package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.common.Gzip;
import com.github.tomakehurst.wiremock.core.Options;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.warc.JwarcValidate;
import io.sievecrawl.crawler.warc.WarcArchive;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.Warcinfo;
import org.netpreserve.jwarc.net.WarcServer;

/**
 * A crawl of two loopback sites written to WARC, read back with jwarc and checked record by record against what
 * the servers sent, then run through jwarc's own validate tool. One site answers chunked, the other with
 * Content-Length and a page it compresses itself; neither lets the server library compress on its own, so the
 * bytes each sent are known exactly.
 */
class WarcCaptureTest {
  private static final int CAP = 64_000;

  @TempDir
  Path warcDir;
  private WireMockServer chunked;
  private WireMockServer fixed;
  private final Map<String, byte[]> sent = new HashMap<>();
  private String a;
  private String b;

  @BeforeEach
  void serveSites() throws IOException {
    chunked = new WireMockServer(options().dynamicPort().gzipDisabled(true)
        .useChunkedTransferEncoding(Options.ChunkedEncodingPolicy.ALWAYS));
    fixed = new WireMockServer(options().dynamicPort().gzipDisabled(true)
        .useChunkedTransferEncoding(Options.ChunkedEncodingPolicy.NEVER));
    chunked.start();
    fixed.start();
    a = "http://127.0.0.1:" + chunked.port();
    b = "http://localhost:" + fixed.port();

    serve(chunked, a, "/robots.txt", 200, "text/plain",
        "User-agent: *\nDisallow: /private/\n".getBytes(StandardCharsets.UTF_8));
    html(chunked, a, "/", Html.page("home", "/a", "/big", "/image.png", "/redirect", "/missing", "/private/x"));
    html(chunked, a, "/a", Html.page("a", "/"));
    html(chunked, a, "/big", Html.page("big", "/after-big") + "<!--" + "x".repeat(3 * CAP) + "-->");
    html(chunked, a, "/after-big", Html.page("after big"));
    byte[] image = new byte[20_000];
    new Random(5).nextBytes(image);
    serve(chunked, a, "/image.png", 200, "image/png", image);
    chunked.stubFor(get(urlEqualTo("/redirect")).willReturn(aResponse().withStatus(301)
        .withHeader("Location", "/target").withBody("moved")));
    sent.put(a + "/redirect", "moved".getBytes(StandardCharsets.UTF_8));
    html(chunked, a, "/target", Html.page("target"));
    serve(chunked, a, "/missing", 404, "text/html", "<p>not here</p>".getBytes(StandardCharsets.UTF_8));

    serve(fixed, b, "/robots.txt", 404, "text/plain", "no robots".getBytes(StandardCharsets.UTF_8));
    html(fixed, b, "/", Html.page("b home", "/gz"));
    byte[] gz = Gzip.gzip(Html.page("gzipped", "/gz-child"));
    fixed.stubFor(get(urlEqualTo("/gz")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withHeader("Content-Encoding", "gzip").withBody(gz)));
    sent.put(b + "/gz", gz);
    html(fixed, b, "/gz-child", Html.page("gz child"));
  }

  @AfterEach
  void stopSites() {
    chunked.stop();
    fixed.stop();
  }

  @Test
  void everyExchangeIsArchivedAsSentAndTheFilesValidate() throws Exception {
    CrawlSettings settings = CrawlSettings.builder()
        .set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.MAX_BODY_SIZE, (long) CAP)
        .set(Setting.FILTER_N, 10_000L)
        .build();
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary;
    try (WarcArchive archive = WarcArchive.open(warcDir, "test", 1_000_000_000L,
        Map.of("software", List.of("sievecrawl-test"), "robots", List.of("obey")), Clock.systemUTC())) {
      summary = Crawler.builder(settings, sink).recorder(archive).build().run(List.of(a + "/", b + "/"));
    }
    assertEquals(CrawlSummary.End.COMPLETED, summary.end());
    assertTrue(sink.get(a + "/big").truncated());
    assertEquals(200, sink.get(a + "/after-big").status(), "the truncated page's link was followed");

    List<Path> files = files();
    assertEquals(1, files.size(), "one file, closed: " + files);
    assertTrue(files.get(0).getFileName().toString().matches("test-\\d{17}-00001\\.warc\\.gz"), files.toString());

    Map<String, WarcResponse> responses = new HashMap<>();
    Map<String, byte[]> blocks = new HashMap<>();
    List<WarcRequest> requests = new ArrayList<>();
    List<String> requestHeads = new ArrayList<>();
    List<Long> offsets = new ArrayList<>();
    try (WarcReader reader = new WarcReader(files.get(0))) {
      WarcRecord first = reader.next().orElseThrow();
      assertTrue(first instanceof Warcinfo, "a warcinfo record opens the file");
      assertEquals("sievecrawl-test", ((Warcinfo) first).fields().first("software").orElseThrow());
      for (WarcRecord record = reader.next().orElse(null); record != null; record = reader.next().orElse(null)) {
        offsets.add(reader.position());
        assertEquals("WARC/1.1", record.version().toString());
        if (record instanceof WarcResponse response) {
          byte[] block = record.body().stream().readAllBytes();
          assertNull(responses.put(response.target(), response), "one response per fetch: " + response.target());
          blocks.put(response.target(), block);
        } else if (record instanceof WarcRequest request) {
          requests.add(request);
          requestHeads.add(new String(request.body().stream().readAllBytes(), StandardCharsets.ISO_8859_1));
        } else {
          throw new AssertionError("unexpected record " + record.type());
        }
      }
    }

    // Every request the servers saw is archived, robots.txt included, and nothing else.
    List<String> served = new ArrayList<>();
    chunked.getAllServeEvents().forEach(e -> served.add(a + e.getRequest().getUrl()));
    fixed.getAllServeEvents().forEach(e -> served.add(b + e.getRequest().getUrl()));
    assertEquals(new java.util.TreeSet<>(served), new java.util.TreeSet<>(responses.keySet()));
    assertEquals(served.size(), responses.size());
    assertEquals(served.size(), requests.size());

    for (Map.Entry<String, WarcResponse> entry : responses.entrySet()) {
      String url = entry.getKey();
      WarcResponse response = entry.getValue();
      byte[] block = blocks.get(url);
      assertFalse(response.headers().sole("WARC-Target-URI").orElseThrow().startsWith("<"), url);
      assertEquals("127.0.0.1", response.headers().sole("WARC-IP-Address").orElseThrow(), url);
      assertTrue(response.headers().sole("WARC-Date").orElseThrow()
          .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,3})?Z"), "WARC-Date to the millisecond: " + url);
      assertEquals(sha1(block), response.blockDigest().orElseThrow(), "block digest of " + url);
      int headEnd = indexOf(block, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII)) + 4;
      byte[] payload = java.util.Arrays.copyOfRange(block, headEnd, block.length);
      assertEquals(sha1(payload), response.payloadDigest().orElseThrow(), "payload digest of " + url);
      Map<String, String> http = headFields(block, headEnd);
      assertFalse(http.containsKey("transfer-encoding"), "the transfer coding is removed: " + url);
      byte[] expected = sent.get(url);
      assertNotNull(expected, "no bytes known for " + url);
      if (url.equals(a + "/big")) {
        assertEquals(WarcTruncationReason.LENGTH, response.truncated());
        assertEquals(CAP, payload.length);
        assertArrayEquals(java.util.Arrays.copyOf(expected, CAP), payload, "the first bytes of " + url);
        assertFalse(http.containsKey("content-length"), "no length is made up for a cut body");
      } else {
        assertTrue(response.headers().first("WARC-Truncated").isEmpty(), url);
        assertArrayEquals(expected, payload, "payload of " + url + " as the server sent it");
        assertEquals(payload.length, Long.parseLong(http.get("content-length")), url);
      }
    }
    byte[] gzBlock = blocks.get(b + "/gz");
    assertEquals("gzip", headFields(gzBlock, indexOf(gzBlock, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII)))
        .get("content-encoding"), "the page is archived compressed, as sent");
    assertTrue(new String(blocks.get(a + "/redirect"), StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 301 "));
    assertTrue(new String(blocks.get(a + "/missing"), StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 404 "));

    // Each request names the response it belongs to and is the request OkHttp sent.
    for (int i = 0; i < requests.size(); i++) {
      WarcRequest request = requests.get(i);
      assertEquals(1, request.concurrentTo().size());
      WarcResponse response = responses.get(request.target());
      assertEquals(response.id(), request.concurrentTo().get(0), request.target());
      String head = requestHeads.get(i);
      String path = java.net.URI.create(request.target()).getRawPath();
      assertTrue(head.startsWith("GET " + path + " HTTP/1.1\r\n"), head);
      assertTrue(head.contains("\r\nUser-Agent: sievecrawl/"), head);
      assertTrue(head.contains("\r\nHost: "), head);
      assertTrue(head.contains("\r\nAccept-Encoding: gzip\r\n"), head);
      assertTrue(head.endsWith("\r\n\r\n"), head);
    }

    // One gzip member per record: a fresh reader started at any record's offset reads that record.
    try (FileChannel file = FileChannel.open(files.get(0))) {
      for (long offset : offsets) {
        file.position(offset);
        WarcReader alone = new WarcReader(file);
        assertTrue(alone.next().isPresent(), "a record starts at " + offset);
      }
    }

    replaysWithJwarcServe(files);

    assertEquals(0, JwarcValidate.run(files), "jwarc validate (its output is above)");
  }

  /**
   * jwarc's replay server, used as an HTTP proxy (its mode without rewriting), serves the archived exchanges back
   * as they were sent: a chunked page, an image and a gzip-compressed page, byte for byte.
   */
  private void replaysWithJwarcServe(List<Path> files) throws Exception {
    ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    WarcServer server = new WarcServer(socket, files);
    Thread listener = new Thread(server::listen, "jwarc-serve");
    listener.setDaemon(true);
    listener.start();
    // The client is closed first, so that the server sees its connection end rather than being interrupted (which
    // jwarc's server prints as a stack trace).
    try (HttpClient client = HttpClient.newBuilder()
        .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", socket.getLocalPort()))).build()) {
      for (String url : List.of(a + "/a", a + "/image.png", b + "/gz")) {
        HttpResponse<byte[]> replayed = client.send(HttpRequest.newBuilder(URI.create(url)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, replayed.statusCode(), url);
        assertArrayEquals(sent.get(url), replayed.body(), "replayed as sent: " + url);
      }
    } finally {
      server.close();
    }
  }

  /** The WARC files, not the hidden lock file. */
  /** The WARC files, not the lock, the index or its parts. */
  private List<Path> files() throws IOException {
    try (Stream<Path> entries = Files.list(warcDir)) {
      return entries.filter(f -> f.getFileName().toString().contains(".warc.gz")).sorted().toList();
    }
  }

  private void html(WireMockServer server, String base, String path, String body) {
    serve(server, base, path, 200, "text/html", body.getBytes(StandardCharsets.UTF_8));
  }

  private void serve(WireMockServer server, String base, String path, int status, String type, byte[] body) {
    server.stubFor(get(urlEqualTo(path)).willReturn(aResponse().withStatus(status).withHeader("Content-Type", type)
        .withBody(body)));
    sent.put(base + path, body);
  }

  private static WarcDigest sha1(byte[] bytes) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-1");
    md.update(bytes);
    return new WarcDigest(md);
  }

  /** The header fields of an HTTP head, names in lower case. */
  private static Map<String, String> headFields(byte[] block, int headEnd) {
    Map<String, String> fields = new HashMap<>();
    String[] lines = new String(block, 0, headEnd, StandardCharsets.ISO_8859_1).split("\r\n");
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        fields.put(lines[i].substring(0, colon).toLowerCase(java.util.Locale.ROOT),
            lines[i].substring(colon + 1).trim());
      }
    }
    return fields;
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}

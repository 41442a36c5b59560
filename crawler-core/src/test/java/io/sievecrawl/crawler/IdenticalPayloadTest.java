package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.RequisiteFetch;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.warc.JwarcValidate;
import io.sievecrawl.crawler.warc.WarcArchive;
import io.sievecrawl.crawler.warc.WarcIndex;
import io.sievecrawl.sieve.testing.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * An identical payload is stored once: the same bytes under another URL are archived as an identical-payload-digest
 * revisit of the first capture, and the page's record says which; only 2xx responses are revisits; the store of
 * digests is bounded.
 */
class IdenticalPayloadTest {
  private static final byte[] LOGO = logo();

  @RegisterExtension
  final LoopbackSite site = LoopbackSite.uncompressed();
  @TempDir
  Path dir;
  private String root;

  private static byte[] logo() {
    byte[] bytes = new byte[5_000];
    Arrays.fill(bytes, (byte) 7);
    return bytes;
  }

  @BeforeEach
  void serve() {
    root = site.root();
    Html.serve(site.server(), "/", "<title>Home</title><img src=\"/a/logo.png\"><img src=\"/b/logo.png\">"
        + "<img src=\"/c/logo.png\"><a href=\"/missing-1\">1</a> <a href=\"/missing-2\">2</a>");
    for (String copy : List.of("/a/logo.png", "/b/logo.png", "/c/logo.png")) {
      site.server().stubFor(get(urlEqualTo(copy)).willReturn(aResponse().withHeader("Content-Type", "image/png")
          .withBody(LOGO)));
    }
    for (String missing : List.of("/missing-1", "/missing-2")) { // the same 404 page twice: no revisit
      site.server().stubFor(get(urlEqualTo(missing)).willReturn(aResponse().withStatus(404)
          .withHeader("Content-Type", "text/html").withBody("<title>Not found</title>")));
    }
  }

  private CollectingSink crawl(Path warcDir, int digests) throws Exception {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L).set(Setting.REQUISITES_FETCH, RequisiteFetch.ON).build();
    CollectingSink sink = new CollectingSink();
    try (WarcArchive warc = WarcArchive.open(warcDir, "test", 1_000_000_000L, digests, Map.of(), new FakeClock())) {
      Crawler.builder(settings, sink).recorder(warc).build().run(List.of(root + "/"));
      long[] saved = warc.identicalPayloads();
      assertEquals(digests > 0 ? 2 : 0, saved[0], "responses stored as revisits");
      assertEquals(digests > 0 ? 2 * LOGO.length : 0, saved[1], "payload bytes not written again");
    }
    return sink;
  }

  /** The archive's records by URL: "response", or "revisit of URL". */
  private static Map<String, String> records(Path warcDir) throws Exception {
    Map<String, String> records = new HashMap<>();
    for (Path file : WarcIndex.closedWarcs(warcDir)) {
      try (WarcReader reader = new WarcReader(file)) {
        for (WarcRecord record : reader) {
          if (record instanceof WarcResponse response) {
            records.put(response.target(), "response");
          } else if (record instanceof WarcRevisit revisit) {
            assertEquals(WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1, revisit.profile());
            assertEquals(200, revisit.http().status(), "the response's own head: 200, image/png");
            records.put(revisit.target(), "revisit of " + revisit.refersToTargetURI().orElseThrow());
          }
        }
      }
    }
    return records;
  }

  @Test
  void theSameBytesUnderAnotherUrlAreARevisitOfTheirFirstCapture() throws Exception {
    Path warc = dir.resolve("warc");
    CollectingSink sink = crawl(warc, 1_000);
    Map<String, String> records = records(warc);
    assertEquals("response", records.get(root + "/a/logo.png"));
    assertEquals("revisit of " + root + "/a/logo.png", records.get(root + "/b/logo.png"));
    assertEquals("revisit of " + root + "/a/logo.png", records.get(root + "/c/logo.png"));
    assertEquals("response", records.get(root + "/missing-2"), "only 2xx responses are revisits");
    CrawlResult copy = sink.get(root + "/b/logo.png");
    assertEquals(CrawlResult.Capture.IDENTICAL_PAYLOAD_DIGEST, copy.capture().revisit());
    assertEquals(root + "/a/logo.png", copy.capture().capturedUrl());
    assertEquals(sink.get(root + "/a/logo.png").fetchedAt().truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
        copy.capture().capturedAt());
    assertNull(sink.get(root + "/a/logo.png").capture().revisit());
    assertEquals(0, JwarcValidate.run(WarcIndex.closedWarcs(warc)));
  }

  @Test
  void withoutDigestsEveryPayloadIsWrittenWhole() throws Exception {
    Path warc = dir.resolve("warc");
    crawl(warc, 0);
    assertEquals("response", records(warc).get(root + "/c/logo.png"));
  }
}

package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sitemaps listed by robots.txt, given as seeds or linked, and feeds: their URLs are crawled like links, within
 * scope and robots.txt, each once.
 */
class SitemapTest {
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite();
  private final WireMockServer server = loopback.server();
  private String root;

  @BeforeEach
  void serve() {
    root = loopback.root();
    Html.serve(server, "/", Html.page("root", "/linked"));
    for (String path : List.of("/linked", "/orphan", "/deep/orphan", "/closed/x", "/from-index", "/from-gzip")) {
      Html.serve(server, path, Html.page(path));
    }
  }

  private CollectingSink crawl(CrawlSettings.Builder settings) {
    CollectingSink sink = new CollectingSink();
    Crawler crawler = Crawler.create(settings.set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L).build(), sink);
    crawler.run(List.of(root + "/"));
    assertEquals(List.of(), crawler.workerFailures());
    return sink;
  }

  private void robots(String body) {
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withBody(body)));
  }

  private static String urlset(String... urls) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for (String url : urls) {
      xml.append("  <url><loc>").append(url).append("</loc></url>\n");
    }
    return xml.append("</urlset>\n").toString();
  }

  @Test
  void pagesOnlyASitemapListsAreFetchedOnceWithinScopeAndRobotsTxt() {
    robots("User-agent: *\nDisallow: /closed/\n\nSitemap: " + root + "/sitemap.xml\n");
    server.stubFor(get(urlEqualTo("/sitemap.xml")).willReturn(aResponse()
        .withHeader("Content-Type", "application/xml")
        .withBody(urlset(root + "/orphan", root + "/deep/orphan", root + "/linked", root + "/closed/x",
            "http://elsewhere.invalid/page", root + "/orphan#again"))));
    CollectingSink sink = crawl(CrawlSettings.builder());
    assertEquals(List.of(root + "/", root + "/deep/orphan", root + "/linked", root + "/orphan",
        root + "/sitemap.xml"), sink.fetchedUrls());
    CrawlResult sitemap = sink.get(root + "/sitemap.xml");
    assertEquals(200, sitemap.status());
    assertEquals(6, sitemap.outlinks(), "every URL it lists");
    assertEquals(1, sitemap.depth());
    assertEquals(root + "/robots.txt", sitemap.referrer());
    CrawlResult orphan = sink.get(root + "/orphan");
    assertEquals(1, orphan.depth(), "a sitemap's URLs count as one hop, as the sitemap does");
    assertEquals(root + "/sitemap.xml", orphan.referrer());
    assertEquals(ErrorKind.ROBOTS_DISALLOWED, sink.get(root + "/closed/x").errorKind());
    server.verify(1, getRequestedFor(urlEqualTo("/orphan")));
    server.verify(1, getRequestedFor(urlEqualTo("/linked")));
  }

  @Test
  void anIndexLeadsToItsSitemapsCompressedOrNot() throws IOException {
    robots("Sitemap: /sitemap-index.xml\n");
    server.stubFor(get(urlEqualTo("/sitemap-index.xml")).willReturn(aResponse().withBody(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
            + "  <sitemap><loc>" + root + "/a.xml</loc></sitemap>\n"
            + "  <sitemap><loc>" + root + "/b.xml.gz</loc></sitemap>\n"
            + "  <sitemap><loc>" + root + "/c.txt</loc></sitemap>\n"
            + "</sitemapindex>\n")));
    server.stubFor(get(urlEqualTo("/a.xml")).willReturn(aResponse().withHeader("Content-Type", "text/xml")
        .withBody(urlset(root + "/from-index"))));
    server.stubFor(get(urlEqualTo("/b.xml.gz")).willReturn(aResponse()
        .withHeader("Content-Type", "application/x-gzip").withBody(gzip(urlset(root + "/from-gzip")))));
    server.stubFor(get(urlEqualTo("/c.txt")).willReturn(aResponse().withHeader("Content-Type", "text/plain")
        .withBody(root + "/orphan\n" + root + "/deep/orphan\n")));
    CollectingSink sink = crawl(CrawlSettings.builder());
    assertEquals(List.of(root + "/", root + "/a.xml", root + "/b.xml.gz", root + "/c.txt", root + "/deep/orphan",
        root + "/from-gzip", root + "/from-index", root + "/linked", root + "/orphan", root + "/sitemap-index.xml"),
        sink.fetchedUrls());
    assertEquals(1, sink.get(root + "/from-gzip").depth(), "an index's sitemaps and their URLs keep its depth");
  }

  @Test
  void aCompressedSitemapCutAtTheProtocolsLimitIsRecordedAsTruncated() throws IOException {
    robots("Sitemap: " + root + "/bomb.xml.gz\n");
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(bytes)) {
      out.write(urlset(root + "/orphan").replace("</urlset>", "").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      byte[] spaces = new byte[1 << 20];
      java.util.Arrays.fill(spaces, (byte) ' ');
      for (int i = 0; i < 60; i++) { // past the protocol's 50 MB uncompressed
        out.write(spaces);
      }
      out.write("</urlset>".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    server.stubFor(get(urlEqualTo("/bomb.xml.gz")).willReturn(aResponse()
        .withHeader("Content-Type", "application/x-gzip").withBody(bytes.toByteArray())));
    CollectingSink sink = crawl(CrawlSettings.builder());
    CrawlResult bomb = sink.get(root + "/bomb.xml.gz");
    assertTrue(bomb.truncated(), "cut at 50 MB decompressed: " + bomb);
    assertTrue(sink.fetchedUrls().contains(root + "/orphan"), "what came before the cut is read");
    assertFalse(sink.get(root + "/").truncated());
  }

  @Test
  void aSitemapThatIsNoSitemapIsRecordedAsSuch() {
    robots("Sitemap: " + root + "/sitemap.xml\n");
    server.stubFor(get(urlEqualTo("/sitemap.xml")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody(Html.page("soft 404", "/orphan"))));
    CollectingSink sink = crawl(CrawlSettings.builder());
    CrawlResult sitemap = sink.get(root + "/sitemap.xml");
    assertEquals(ErrorKind.NOT_A_SITEMAP, sitemap.errorKind(), String.valueOf(sitemap.error()));
    assertEquals(200, sitemap.status());
    assertEquals(List.of(root + "/", root + "/linked", root + "/sitemap.xml"), sink.fetchedUrls(),
        "its links are not followed as a page's would be");
  }

  @Test
  void sitemapsAreNotFollowedWhenTurnedOffOrAtDepthZero() {
    robots("Sitemap: " + root + "/sitemap.xml\n");
    server.stubFor(get(urlEqualTo("/sitemap.xml")).willReturn(aResponse().withBody(urlset(root + "/orphan"))));
    assertEquals(List.of(root + "/", root + "/linked"),
        crawl(CrawlSettings.builder().set(Setting.FOLLOW_SITEMAPS, false)).fetchedUrls());
    assertEquals(List.of(root + "/"), crawl(CrawlSettings.builder().set(Setting.MAX_DEPTH, 0)).fetchedUrls());
    server.verify(0, getRequestedFor(urlEqualTo("/sitemap.xml")));
  }

  @Test
  void aSitemapGivenAsASeedMakesThePagesItListsSeedsEvenWithSitemapsOff() throws IOException {
    server.stubFor(get(urlEqualTo("/map.xml")).willReturn(aResponse().withHeader("Content-Type", "text/xml")
        .withBody(urlset(root + "/orphan"))));
    server.stubFor(get(urlEqualTo("/more.xml.gz")).willReturn(aResponse()
        .withHeader("Content-Type", "application/octet-stream").withBody(gzip(urlset(root + "/deep/orphan")))));
    CollectingSink sink = new CollectingSink();
    Crawler crawler = Crawler.create(CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO)
        .set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L).set(Setting.MAX_DEPTH, 0)
        .set(Setting.FOLLOW_SITEMAPS, false).build(), sink);
    crawler.run(List.of(root + "/map.xml", root + "/more.xml.gz"));
    assertEquals(List.of(), crawler.workerFailures());
    assertEquals(List.of(root + "/deep/orphan", root + "/map.xml", root + "/more.xml.gz", root + "/orphan"),
        sink.fetchedUrls(), "the pages listed are at the seeds' depth; their links are one hop further");
    assertEquals(1, sink.get(root + "/map.xml").outlinks());
    assertEquals(0, sink.get(root + "/orphan").depth());
  }

  @Test
  void aLinkedFeedIsReadForItsPagesAndOtherXmlIsAPageWithoutLinks() {
    Html.serve(server, "/", Html.page("root", "/feed.rss", "/data.xml"));
    server.stubFor(get(urlEqualTo("/feed.rss")).willReturn(aResponse()
        .withHeader("Content-Type", "application/rss+xml; charset=utf-8")
        .withBody("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>news</title><link>" + root
            + "/</link><item><title>story</title><link>" + root + "/from-index</link></item></channel></rss>")));
    server.stubFor(get(urlEqualTo("/data.xml")).willReturn(aResponse().withHeader("Content-Type", "application/xml")
        .withBody("<?xml version=\"1.0\"?><catalog><book id=\"1\"><title>x</title></book></catalog>")));
    CollectingSink sink = crawl(CrawlSettings.builder());
    assertEquals(List.of(root + "/", root + "/data.xml", root + "/feed.rss", root + "/from-index"),
        sink.fetchedUrls());
    assertEquals(null, sink.get(root + "/data.xml").errorKind(), "an XML document is no error");
    assertEquals(0, sink.get(root + "/data.xml").outlinks());
    assertEquals(List.of(root + "/", root + "/data.xml", root + "/feed.rss"),
        crawl(CrawlSettings.builder().set(Setting.FOLLOW_SITEMAPS, false)).fetchedUrls(),
        "a linked feed is only a page when sitemaps are not followed");
  }

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }
}

package io.sievecrawl.crawler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sievecrawl.crawler.fetch.Revalidation;
import io.sievecrawl.crawler.url.InvalidUrlException;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CrawlTaskTest {
  private final UrlNormalizer normalizer = new UrlNormalizer(2048, true);

  private Url url(String raw) throws InvalidUrlException {
    return normalizer.get(raw);
  }

  @Test
  void aTaskReadBackFromTheFrontierIsTheTaskWrittenWithItsUrlParsed() throws InvalidUrlException {
    CrawlTask seed = CrawlTask.seed(url("https://Example.com/"));
    List<CrawlTask> tasks = List.of(seed,
        seed.link(url("https://example.com/docs/a.html?q=1")),
        seed.link(url("http://[::1]:8080/x")).link(url("https://other.example:8443/über")),
        seed.redirect(url("https://www.example.com/")).redirect(url("https://www.example.com/home")),
        new CrawlTask(url("http://example.com/p"), 7, "http://example.com/", 3, 0),
        CrawlTask.listedSitemap(url("https://example.com/sitemap.xml"), "https://example.com/robots.txt"),
        CrawlTask.listedSitemap(url("https://example.com/index.xml"), null).listed(url("https://example.com/a.xml"), true)
            .redirect(url("https://example.com/a2.xml")),
        CrawlTask.revisit(url("https://example.com/r"), new LastVisit(Instant.parse("2026-11-20T10:00:00.123Z"), 200,
            new Revalidation("\"5f-1a\"", "Thu, 19 Nov 2026 08:00:00 GMT", "sha1:AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH",
                Instant.parse("2026-11-19T10:00:00.456Z")), 0, false, 4, false)),
        CrawlTask.revisit(url("https://example.com/gone"), new LastVisit(Instant.EPOCH, null,
            new Revalidation(null, null, null, null), 3, true, 1, true)),
        seed.requisiteOf(url("https://cdn.example/site.css")).requisiteOf(url("https://cdn.example/bg.png")),
        seed.requisiteOf(url("https://example.com/logo.png")).redirect(url("https://example.com/logo2.png")),
        CrawlTask.revisit(url("https://example.com/s.css"), new LastVisit(Instant.EPOCH, 200,
            new Revalidation("\"e\"", null, null, null), 0, false, 2, false, true)));
    for (CrawlTask task : tasks) {
      byte[] framed = frame(CrawlTask.CODEC.encode(task));
      CrawlTask back = CrawlTask.CODEC.decode(framed, 3, framed.length - 5);
      assertEquals(task, back);
      assertEquals(task.url().host(), back.url().host());
      assertEquals(task.url().port(), back.url().port());
      assertEquals(task.origin(), back.origin());
      assertEquals(task.url().pathAndQuery(), back.url().pathAndQuery());
    }
  }

  @Test
  void linksAndRedirectsKeepTheirHopsAndReferrer() throws InvalidUrlException {
    CrawlTask seed = CrawlTask.seed(url("https://example.com/"));
    assertNull(seed.referrer());
    CrawlTask link = seed.link(url("https://example.com/a"));
    assertEquals(1, link.depth());
    assertEquals("https://example.com/", link.referrer());
    CrawlTask moved = link.redirect(url("https://example.com/b"));
    assertEquals(1, moved.depth(), "a redirect keeps the depth of the URL that redirected");
    assertEquals(1, moved.redirectHops());
    assertEquals("https://example.com/a", moved.referrer());
    assertEquals("https://example.com", moved.origin());
    assertEquals("https://example.com/b", moved.key());
  }

  @Test
  void aSitemapStaysOneThroughRedirectsAndRetriesAndListsPagesAtItsDepth() throws InvalidUrlException {
    CrawlTask sitemap = CrawlTask.listedSitemap(url("https://example.com/sitemap.xml"), "https://example.com/robots.txt");
    assertEquals(1, sitemap.depth());
    assertEquals(true, sitemap.redirect(url("https://example.com/s.xml")).sitemap());
    assertEquals(true, sitemap.retry().sitemap());
    CrawlTask page = sitemap.listed(url("https://example.com/orphan"), false);
    assertEquals(false, page.sitemap());
    assertEquals(1, page.depth());
    assertEquals("https://example.com/sitemap.xml", page.referrer());
    assertEquals(false, page.link(url("https://example.com/next")).sitemap());
  }

  @Test
  void aTaskWrittenBeforeSitemapsReadsBackAsAPage() throws InvalidUrlException {
    CrawlTask page = CrawlTask.seed(url("https://example.com/a")).link(url("https://example.com/b"));
    byte[] bytes = CrawlTask.CODEC.encode(page);
    CrawlTask asSitemap = new CrawlTask(page.url(), page.depth(), page.referrer(), 0, 0, true);
    byte[] flagged = CrawlTask.CODEC.encode(asSitemap);
    assertEquals(bytes.length + 1, flagged.length, "a page's bytes are as before; a sitemap adds its flag");
    assertEquals(Arrays.toString(bytes), Arrays.toString(Arrays.copyOf(flagged, bytes.length)));
    assertEquals(page, CrawlTask.CODEC.decode(bytes, 0, bytes.length));
    assertEquals(asSitemap, CrawlTask.CODEC.decode(flagged, 0, flagged.length));
    byte[] unknownFlag = flagged.clone();
    unknownFlag[unknownFlag.length - 1] = 2;
    assertThrows(IllegalArgumentException.class, () -> CrawlTask.CODEC.decode(unknownFlag, 0, unknownFlag.length));
  }

  @Test
  void aRequisiteKeepsItsPagesDepthWaitsInItsOriginsLaneAndStaysOneThroughRedirectsAndRetries()
      throws InvalidUrlException {
    CrawlTask page = CrawlTask.seed(url("https://example.com/")).link(url("https://example.com/a"));
    CrawlTask css = page.requisiteOf(url("https://cdn.example/site.css"));
    assertEquals(1, css.depth(), "a requisite is no hop");
    assertEquals("https://example.com/a", css.referrer(), "the page that needs it");
    assertEquals("https://cdn.example requisites", css.queue());
    assertEquals("https://cdn.example", css.origin());
    assertEquals("https://example.com", page.queue());
    CrawlTask image = css.requisiteOf(url("https://cdn.example/bg.png"));
    assertEquals(1, image.depth());
    assertEquals("https://cdn.example/site.css", image.referrer(), "a style sheet's requisite names the sheet");
    assertEquals(true, image.redirect(url("https://cdn.example/bg2.png")).requisite());
    assertEquals(true, image.retry().requisite());
    assertEquals(false, page.link(url("https://example.com/b")).requisite());
  }

  @Test
  void aTaskWrittenBeforeRequisitesReadsBackUnchanged() throws InvalidUrlException {
    // Bytes as the codec wrote them before requisites (varints: depth 1, hops 0, the URL, the referrer's shared
    // prefix + 1 and rest; a sitemap's flags 1): read back as they were, the requisite flag clear.
    byte[] page = {1, 0, 21, 'h', 't', 't', 'p', 's', ':', '/', '/', 'e', 'x', 'a', 'm', 'p', 'l', 'e', '.', 'c', 'o',
        'm', '/', 'b', 21, 1, 'a'};
    CrawlTask read = CrawlTask.CODEC.decode(page, 0, page.length);
    assertEquals(CrawlTask.seed(url("https://example.com/a")).link(url("https://example.com/b")).key(), read.key());
    assertEquals("https://example.com/a", read.referrer());
    assertEquals(false, read.requisite());
    assertEquals(Arrays.toString(page), Arrays.toString(CrawlTask.CODEC.encode(read)), "and written the same");
    byte[] sitemap = Arrays.copyOf(page, page.length + 1);
    sitemap[page.length] = 1;
    assertEquals(true, CrawlTask.CODEC.decode(sitemap, 0, sitemap.length).sitemap());
    assertEquals(false, CrawlTask.CODEC.decode(sitemap, 0, sitemap.length).requisite());
    byte[] requisite = sitemap.clone();
    requisite[page.length] = 4;
    assertEquals(true, CrawlTask.CODEC.decode(requisite, 0, requisite.length).requisite());
    requisite[page.length] = 16;
    byte[] unknown = requisite;
    assertThrows(IllegalArgumentException.class, () -> CrawlTask.CODEC.decode(unknown, 0, unknown.length));
  }

  @Test
  void bytesThatAreNoTaskAreRefused() throws InvalidUrlException {
    byte[] good = CrawlTask.CODEC.encode(CrawlTask.seed(url("https://example.com/a")));
    assertThrows(IllegalArgumentException.class, () -> CrawlTask.CODEC.decode(good, 0, good.length - 1));
    byte[] notCanonical = good.clone();
    int h = new String(notCanonical, StandardCharsets.ISO_8859_1).indexOf("https");
    notCanonical[h + 4] = 'x'; // httpx://example.com/a
    assertThrows(IllegalArgumentException.class,
        () -> CrawlTask.CODEC.decode(notCanonical, 0, notCanonical.length));
    // Lengths near Integer.MAX_VALUE must not overflow the bounds checks: a URL length, then a referrer's rest.
    byte[] hugeUrl = {0, 0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07, 'h'};
    assertThrows(IllegalArgumentException.class, () -> CrawlTask.CODEC.decode(hugeUrl, 0, hugeUrl.length));
    byte[] url = "http://a/".getBytes(StandardCharsets.US_ASCII);
    byte[] hugeRest = new byte[3 + url.length + 6];
    hugeRest[2] = (byte) url.length;
    System.arraycopy(url, 0, hugeRest, 3, url.length);
    byte[] tail = {1, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07};
    System.arraycopy(tail, 0, hugeRest, 3 + url.length, tail.length);
    assertThrows(IllegalArgumentException.class, () -> CrawlTask.CODEC.decode(hugeRest, 0, hugeRest.length));
  }

  /** The encoding inside other bytes, as a frontier's log holds it. */
  private static byte[] frame(byte[] encoded) {
    byte[] framed = new byte[encoded.length + 5];
    Arrays.fill(framed, (byte) 0x7F);
    System.arraycopy(encoded, 0, framed, 3, encoded.length);
    return framed;
  }
}

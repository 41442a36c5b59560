package io.sievecrawl.crawler.sitemap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SitemapReaderTest {
  private static final String BASE = "https://example.com/docs/sitemap.xml";

  private static byte[] urlset(int count) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n"
        + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for (int i = 0; i < count; i++) {
      xml.append("<url><loc>https://example.com/p").append(i).append("</loc><lastmod>2026-01-01</lastmod></url>\n");
    }
    return xml.append("</urlset>\n").toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void readsTheUrlsInDocumentOrderIncludingThoseOutsideTheSitemapsFolder() throws Exception {
    SitemapReader.Listing listing = SitemapReader.read(urlset(3), "application/xml", BASE);
    assertEquals(List.of("https://example.com/p0", "https://example.com/p1", "https://example.com/p2"),
        listing.urls());
    assertEquals(false, listing.index());
    assertEquals(0, listing.overCap());
  }

  @Test
  void aSitemapCutOffKeepsTheUrlsBeforeTheCut() throws Exception {
    byte[] whole = urlset(10);
    String text = new String(whole, StandardCharsets.UTF_8);
    int cut = text.indexOf("p7");
    byte[] truncated = text.substring(0, cut).getBytes(StandardCharsets.UTF_8);
    List<String> urls = SitemapReader.read(truncated, "application/xml", BASE).urls();
    assertEquals(7, urls.size(), urls.toString());
  }

  @Test
  void takesAtMostTheProtocolsFiftyThousandUrls() throws Exception {
    SitemapReader.Listing listing = SitemapReader.read(urlset(SitemapReader.MAX_URLS + 5), "application/xml", BASE);
    assertEquals(SitemapReader.MAX_URLS, listing.urls().size());
    assertEquals(5, listing.overCap());
  }

  @Test
  void readsAPlainTextSitemapAndAnIndex() throws Exception {
    byte[] text = "https://example.com/a\n\nhttps://example.com/b\n".getBytes(StandardCharsets.UTF_8);
    assertEquals(List.of("https://example.com/a", "https://example.com/b"),
        SitemapReader.read(text, "text/plain", "https://example.com/sitemap.txt").urls());
    byte[] index = ("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
        + "<sitemap><loc>https://example.com/s1.xml</loc></sitemap></sitemapindex>").getBytes(StandardCharsets.UTF_8);
    SitemapReader.Listing listing = SitemapReader.read(index, null, BASE);
    assertEquals(List.of("https://example.com/s1.xml"), listing.urls());
    assertTrue(listing.index());
  }

  @ParameterizedTest
  @CsvSource({"application/gzip, /sitemap.xml.gz", "application/x-gzip, /sitemap.xml.gz",
      "application/octet-stream, /sitemap.xml.gz", "application/xml, /sitemap.xml"})
  void readsAGzipSitemapWhateverItIsServedAs(String contentType, String path) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(urlset(2));
    }
    assertEquals(List.of("https://example.com/p0", "https://example.com/p1"),
        SitemapReader.read(bytes.toByteArray(), contentType, "https://example.com" + path).urls());
  }

  @Test
  void aCompressedSitemapIsReadToTheProtocolsFiftyMegabytesAtMost() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
          + "<url><loc>https://example.com/first</loc></url>").getBytes(StandardCharsets.UTF_8));
      byte[] spaces = new byte[1 << 20];
      java.util.Arrays.fill(spaces, (byte) ' ');
      for (int i = 0; i < 64; i++) { // 64 MB of padding: a bomb of about 64 KB
        out.write(spaces);
      }
      out.write("<url><loc>https://example.com/past-the-cap</loc></url></urlset>".getBytes(StandardCharsets.UTF_8));
    }
    assertTrue(bytes.size() < 200_000, bytes.size() + " bytes compressed");
    SitemapReader.Listing listing = SitemapReader.read(bytes.toByteArray(), "application/gzip",
        "https://example.com/s.xml.gz");
    assertEquals(List.of("https://example.com/first"), listing.urls());
    assertTrue(listing.truncated(), "the record of a bomb says it was cut");

    ByteArrayOutputStream small = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(small)) {
      out.write(("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
          + "<url><loc>https://example.com/a</loc></url></urlset>").getBytes(StandardCharsets.UTF_8));
    }
    assertFalse(SitemapReader.read(small.toByteArray(), "application/gzip", "https://example.com/s.xml.gz")
        .truncated());
  }

  @Test
  void refusesAnHtmlPageAndADocumentTypeWithEntities() {
    assertThrows(SitemapReader.NotASitemapException.class, () -> SitemapReader.read(
        "<html><body><a href=/x>x</a></body></html>".getBytes(StandardCharsets.UTF_8), "text/html", BASE));
    byte[] xxe = ("<?xml version=\"1.0\"?><!DOCTYPE u [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
        + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://example.com/&e;</loc>"
        + "</url></urlset>").getBytes(StandardCharsets.UTF_8);
    SitemapReader.NotASitemapException e = assertThrows(SitemapReader.NotASitemapException.class,
        () -> SitemapReader.read(xxe, "application/xml", BASE));
    assertTrue(!e.getMessage().contains("root:"), e.getMessage());
  }
}

package io.sievecrawl.crawler.sitemap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

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

package io.sievecrawl.crawler.html;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sievecrawl.crawler.encoding.WebEncoding;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which encoding a page is read in; BrowserDocumentsTest checks the same against Chromium on whole pages. */
class HtmlCharsetTest {
  private static String of(String page, String header) {
    byte[] bytes = page.getBytes(StandardCharsets.ISO_8859_1);
    return HtmlCharset.of(bytes, header).encoding().name();
  }

  @Test
  void aByteOrderMarkWinsOverTheHeaderAndIsSkipped() {
    byte[] utf8 = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'h', 'i'};
    assertEquals(new HtmlCharset.Decision(WebEncoding.UTF_8, 3), HtmlCharset.of(utf8, "iso-8859-2"));
    assertEquals("hi", HtmlCharset.of(utf8, null).decode(utf8).text());
    byte[] utf16le = {(byte) 0xFF, (byte) 0xFE, 'h', 0, 'i', 0};
    assertEquals("hi", HtmlCharset.of(utf16le, "utf-8").decode(utf16le).text());
    byte[] utf16be = {(byte) 0xFE, (byte) 0xFF, 0, 'h', 0, 'i'};
    assertEquals("hi", HtmlCharset.of(utf16be, null).decode(utf16be).text());
  }

  @Test
  void theHeaderWinsOverMetaAndUnknownHeaderCharsetsAreIgnored() {
    assertEquals("ISO-8859-2", of("<meta charset=utf-8>", "ISO-8859-2"));
    assertEquals("Shift_JIS", of("<meta charset=shift_jis>", "no-such-charset"));
    assertEquals("x-user-defined", of("<meta charset=utf-8>", "x-user-defined"));
  }

  @Test
  void legacyLabelsNameTheirWebEncodings() {
    assertEquals("EUC-KR", of("", "ks_c_5601-1987"));
    assertEquals("GBK", of("<meta charset=gb2312>", null));
    assertEquals("windows-1252", of("", "US-ASCII"));
    assertEquals("windows-1252", of("<meta charset=iso-8859-1>", null));
    assertEquals("replacement", of("<meta charset=iso-2022-kr>", null));
  }

  @Test
  void metaCharsetAndHttpEquivContentType() {
    assertEquals("EUC-JP", of("<!doctype html><html><head><META CHARSET=\"EUC-JP\">", null));
    assertEquals("KOI8-R", of("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=koi8-r\">", null));
    assertEquals("KOI8-R", of("<meta content='text/html;charset=\"koi8-r\"' http-equiv=content-type>", null));
    assertEquals("KOI8-R", of("<meta/charset=koi8-r>", null));
  }

  @Test
  void aContentCharsetWithoutTheHttpEquivPragmaDoesNotCount() {
    assertEquals("windows-1252", of("<meta name=x content=\"text/html; charset=koi8-r\">", null));
  }

  @Test
  void commentsOtherTagsAttributesAndRawTextAreSkipped() {
    assertEquals("windows-1252", of("<!-- <meta charset=koi8-r> --><p>", null));
    assertEquals("KOI8-R", of("<!--><meta charset=koi8-r>", null)); // "<!-->" is a whole comment
    assertEquals("KOI8-R", of("<!---><meta charset=koi8-r>", null));
    assertEquals("windows-1252", of("<div title=\"<meta charset=koi8-r>\"></div>", null));
    assertEquals("KOI8-R", of("<div title=\"a > b\"></div><meta charset=koi8-r>", null));
    assertEquals("windows-1252", of("<script>document.write('<meta charset=koi8-r>')</script>", null));
    assertEquals("KOI8-R", of("<script>if (a</scriptx) {}</script><meta charset=koi8-r>", null));
    assertEquals("windows-1252", of("<title><meta charset=koi8-r></title>", null));
  }

  @Test
  void utf16AndXUserDefinedInThePageMeanUtf8AndWindows1252() {
    assertEquals("UTF-8", of("<meta charset=utf-16le>", null));
    assertEquals("windows-1252", of("<meta charset=x-user-defined>", null));
    byte[] euro = {(byte) 0x80};
    assertEquals("\u20ac", HtmlCharset.of(euro, "iso-8859-1").decode(euro).text());
  }

  @Test
  void inTheHeadAMetaCountsAtAnyDistanceAndPastItWithinTheFirst1024Bytes() {
    String script = "<script>" + "x".repeat(10_000) + "</script>";
    assertEquals("KOI8-R", of("<html><head>" + script + "<meta charset=koi8-r>", null));
    assertEquals("KOI8-R", of("<head><link rel=a href=b>" + "x".repeat(10_000) + "<meta charset=koi8-r>", null),
        "text does not end the head");
    String early = "<body><p>" + "x".repeat(900) + "</p><meta charset=koi8-r>";
    assertEquals("KOI8-R", of(early, null));
    String late = "<body><p>" + "x".repeat(1100) + "</p><meta charset=koi8-r>";
    assertEquals("windows-1252", of(late, null));
    assertEquals("windows-1252", of("<head></head>" + "<link>".repeat(200) + "<meta charset=koi8-r>", null));
  }

  @Test
  void anXmlDeclarationCountsUnlessAMetaFollows() {
    assertEquals("KOI8-R", of("<?xml version=\"1.0\" encoding=\"koi8-r\"?><p>", null));
    assertEquals("UTF-8", of("<?xml version='1.0' encoding='utf-16'?><p>", null));
    assertEquals("ISO-8859-2", of("<?xml version=\"1.0\" encoding=\"koi8-r\"?><meta charset=iso-8859-2>", null));
    assertEquals("windows-1252", of(" <?xml version=\"1.0\" encoding=\"koi8-r\"?>", null), "only at the start");
  }

  @Test
  void aPageThatDeclaresNothingIsWindows1252EvenInValidUtf8() {
    byte[] latin = "<a href=\"/caf\u00e9.html\">caf\u00e9 \u20ac</a>".getBytes(java.nio.charset.Charset.forName("windows-1252"));
    HtmlCharset.Decoded decoded = HtmlCharset.of(latin, null).decode(latin);
    assertEquals(WebEncoding.WINDOWS_1252, decoded.encoding());
    assertEquals("<a href=\"/caf\u00e9.html\">caf\u00e9 \u20ac</a>", decoded.text(), "0x80 is the euro sign");
    byte[] utf8 = "caf\u00e9".getBytes(StandardCharsets.UTF_8);
    assertEquals(new HtmlCharset.Decoded("caf\u00c3\u00a9", WebEncoding.WINDOWS_1252),
        HtmlCharset.of(utf8, null).decode(utf8), "as Chromium and Firefox read it");
    assertEquals("windows-1252", of("<html><body>plain", null));
    assertEquals("windows-1252", of("<meta charset=no-such-charset>", null));
  }
}

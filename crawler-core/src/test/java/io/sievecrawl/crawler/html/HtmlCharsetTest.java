package io.sievecrawl.crawler.html;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HtmlCharsetTest {
  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  private static Charset of(String head, String header) {
    byte[] bytes = head.getBytes(StandardCharsets.ISO_8859_1);
    return HtmlCharset.of(bytes, header).decode(bytes).charset();
  }

  @Test
  void aByteOrderMarkWinsOverTheHeaderAndIsSkipped() {
    byte[] utf8 = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'h', 'i'};
    assertEquals(new HtmlCharset.Decision(StandardCharsets.UTF_8, 3), HtmlCharset.of(utf8, "iso-8859-2"));
    assertEquals("hi", HtmlCharset.of(utf8, null).decode(utf8).text());
    byte[] utf16le = {(byte) 0xFF, (byte) 0xFE, 'h', 0, 'i', 0};
    assertEquals("hi", HtmlCharset.of(utf16le, "utf-8").decode(utf16le).text());
    byte[] utf16be = {(byte) 0xFE, (byte) 0xFF, 0, 'h', 0, 'i'};
    assertEquals("hi", HtmlCharset.of(utf16be, null).decode(utf16be).text());
  }

  @Test
  void theHeaderWinsOverMetaAndUnknownHeaderCharsetsAreIgnored() {
    assertEquals(Charset.forName("iso-8859-2"), of("<meta charset=utf-8>", "ISO-8859-2"));
    assertEquals(Charset.forName("shift_jis"), of("<meta charset=shift_jis>", "no-such-charset"));
  }

  @Test
  void metaCharsetAndHttpEquivContentType() {
    assertEquals(Charset.forName("euc-jp"), of("<!doctype html><html><head><META CHARSET=\"EUC-JP\">", null));
    assertEquals(Charset.forName("koi8-r"),
        of("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=koi8-r\">", null));
    assertEquals(Charset.forName("koi8-r"),
        of("<meta content='text/html;charset=\"koi8-r\"' http-equiv=content-type>", null));
  }

  @Test
  void aContentCharsetWithoutTheHttpEquivPragmaDoesNotCount() {
    assertEquals(StandardCharsets.UTF_8, of("<meta name=x content=\"text/html; charset=koi8-r\">", null));
  }

  @Test
  void commentsAndOtherTagsAttributesAreSkipped() {
    assertEquals(StandardCharsets.UTF_8, of("<!-- <meta charset=koi8-r> --><p>", null));
    assertEquals(Charset.forName("koi8-r"), of("<!--><meta charset=koi8-r>", null)); // "<!-->" is a whole comment
    assertEquals(StandardCharsets.UTF_8, of("<div title=\"<meta charset=koi8-r>\"></div>", null));
    assertEquals(Charset.forName("koi8-r"), of("<div title=\"a > b\"></div><meta charset=koi8-r>", null));
  }

  @Test
  void latin1LabelsMeanWindows1252AndUtf16InMetaMeansUtf8() {
    assertEquals(WINDOWS_1252, of("<meta charset=iso-8859-1>", null));
    assertEquals(WINDOWS_1252, of("", "US-ASCII"));
    assertEquals(StandardCharsets.UTF_8, of("<meta charset=utf-16le>", null));
    byte[] euro = {(byte) 0x80};
    assertEquals("\u20ac", HtmlCharset.of(euro, "iso-8859-1").decode(euro).text());
  }

  @Test
  void undeclaredBytesAreUtf8WhenTheyAreValidUtf8AndWindows1252Otherwise() {
    byte[] latin = "<a href=\"/caf\u00e9.html\">caf\u00e9 \u20ac</a>".getBytes(WINDOWS_1252);
    HtmlCharset.Decoded decoded = HtmlCharset.of(latin, null).decode(latin);
    assertEquals(WINDOWS_1252, decoded.charset());
    assertEquals("<a href=\"/caf\u00e9.html\">caf\u00e9 \u20ac</a>", decoded.text(), "0x80 is the euro sign");

    byte[] utf8 = "caf\u00e9 \ufffd \ud83d\ude00".getBytes(StandardCharsets.UTF_8); // a U+FFFD of its own is valid
    assertEquals(new HtmlCharset.Decoded("caf\u00e9 \ufffd \ud83d\ude00", StandardCharsets.UTF_8),
        HtmlCharset.of(utf8, null).decode(utf8));
    byte[] cut = java.util.Arrays.copyOf(utf8, utf8.length - 2); // cut off at the size cap inside the last character
    assertEquals(StandardCharsets.UTF_8, HtmlCharset.of(cut, null).decode(cut).charset());
    byte[] declared = "<meta charset=utf-8>caf\u00e9".getBytes(WINDOWS_1252);
    assertEquals(StandardCharsets.UTF_8, HtmlCharset.of(declared, null).decode(declared).charset(),
        "a declaration is taken at its word");
  }

  @Test
  void aDeclarationAfterThePrescanWindowOrNoneAtAllMeansUtf8() {
    String late = "<p>" + "x".repeat(HtmlCharset.PRESCAN_BYTES) + "<meta charset=koi8-r>";
    assertEquals(StandardCharsets.UTF_8, of(late, null));
    assertEquals(StandardCharsets.UTF_8, of("<html><body>plain", null));
    assertEquals(StandardCharsets.UTF_8, of("<meta charset=no-such-charset>", null));
  }
}

package io.sievecrawl.crawler.html;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HtmlCharsetTest {
  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  private static Charset of(String head, String header) {
    return HtmlCharset.of(head.getBytes(StandardCharsets.ISO_8859_1), header).charset();
  }

  @Test
  void aByteOrderMarkWinsOverTheHeaderAndIsSkipped() {
    byte[] utf8 = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'h', 'i'};
    assertEquals(new HtmlCharset.Decision(StandardCharsets.UTF_8, 3), HtmlCharset.of(utf8, "iso-8859-2"));
    assertEquals("hi", HtmlCharset.of(utf8, null).decode(utf8));
    byte[] utf16le = {(byte) 0xFF, (byte) 0xFE, 'h', 0, 'i', 0};
    assertEquals("hi", HtmlCharset.of(utf16le, "utf-8").decode(utf16le));
    byte[] utf16be = {(byte) 0xFE, (byte) 0xFF, 0, 'h', 0, 'i'};
    assertEquals("hi", HtmlCharset.of(utf16be, null).decode(utf16be));
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
    assertEquals("\u20ac", HtmlCharset.of(new byte[] {(byte) 0x80}, "iso-8859-1").decode(new byte[] {(byte) 0x80}));
  }

  @Test
  void aDeclarationAfterThePrescanWindowOrNoneAtAllMeansUtf8() {
    String late = "<p>" + "x".repeat(HtmlCharset.PRESCAN_BYTES) + "<meta charset=koi8-r>";
    assertEquals(StandardCharsets.UTF_8, of(late, null));
    assertEquals(StandardCharsets.UTF_8, of("<html><body>plain", null));
    assertEquals(StandardCharsets.UTF_8, of("<meta charset=no-such-charset>", null));
  }
}

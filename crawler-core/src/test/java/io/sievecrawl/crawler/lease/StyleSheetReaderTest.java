package io.sievecrawl.crawler.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.report.CrawlStats;
import java.util.List;
import org.junit.jupiter.api.Test;

class StyleSheetReaderTest {
  private static final String CSS = "@import 'base.css'; body { background: url(/img/bg.png) }"
      + " .a { background: url(\"../img/bg.png\") } .b { background: url(data:image/png;base64,AAAA) }";
  private final StyleSheetReader reader = new StyleSheetReader(FakeChain.NORMALIZER, 100, new CrawlStats());
  private final CrawlTask page = FakeChain.page("http://example.test/");
  private final CrawlTask sheet = page.requisiteOf(FakeChain.url("http://example.test/css/site.css"));

  @Test
  void aStyleSheetsUrlsAreRequisitesOfItsOwnResolvedAgainstIt() throws Exception {
    Outcome.Complete read = (Outcome.Complete) reader.handle(FakeChain.fetched(sheet,
        FakeChain.response(200, "text/css", CSS)));
    assertEquals(List.of("http://example.test/css/base.css", "http://example.test/img/bg.png"),
        read.requisites().stream().map(CrawlTask::key).toList());
    assertEquals("http://example.test/css/site.css", read.requisites().get(0).referrer());
    assertEquals(true, read.requisites().get(0).requisite());
  }

  @Test
  void aSheetLinkedAsAPageOrAnErrorPassesOn() throws Exception {
    assertSame(FakeChain.PASSED, reader.handle(FakeChain.fetched(FakeChain.page("http://example.test/site.css"),
        FakeChain.response(200, "text/css", CSS))));
    assertSame(FakeChain.PASSED, reader.handle(FakeChain.fetched(sheet, FakeChain.response(404, "text/css", CSS))));
  }

  @Test
  void aSheetIsDecodedByItsCharsetRuleWhenTheHeaderSaysNone() {
    byte[] latin1 = "@charset \"iso-8859-1\"; .a::before { content: 'caf\u00e9' }"
        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    assertEquals(true, StyleSheetReader.decode(latin1, null).contains("caf\u00e9"));
  }
}

package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReadingTest {

  @Test
  void aPageKeepsHtmlXmlAndUntypedBodiesOfA2xxOnly() {
    Reading page = Reading.page(true, false);
    assertTrue(page.parses(200, "text/html"));
    assertTrue(page.parses(203, "application/xhtml+xml"));
    assertTrue(page.parses(200, "application/atom+xml"), "a feed");
    assertTrue(page.parses(200, null), "untyped: sniffed as HTML");
    assertFalse(page.parses(200, "image/png"));
    assertFalse(page.parses(404, "text/html"), "an error page is not read for links");
    assertFalse(page.parses(304, null));
    assertFalse(Reading.page(false, false).parses(200, "text/html"), "only counted");
  }

  @Test
  void aSitemapKeepsAnyType() {
    assertTrue(Reading.page(true, true).parses(200, "application/octet-stream"));
    assertFalse(Reading.page(true, true).parses(500, "application/xml"));
  }

  @Test
  void aRequisiteKeepsItsStyleSheetAndItsHtmlOnlyWhenReadAsAPage() {
    Reading foreign = Reading.requisite(true, false);
    assertTrue(foreign.parses(200, "text/css"));
    assertFalse(foreign.parses(200, "text/html"));
    assertFalse(foreign.parses(200, "application/xml"));
    Reading ours = Reading.requisite(false, true);
    assertTrue(ours.parses(200, "text/html"));
    assertTrue(ours.parses(200, null));
    assertFalse(ours.parses(200, "image/jpeg"));
  }
}

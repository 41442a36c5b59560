package io.sievecrawl.crawler.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.sievecrawl.config.ResultsSettings;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.report.CrawlStats;
import java.util.List;
import org.junit.jupiter.api.Test;

class PageReaderTest {
  private static final String PAGE = "<html><head><title>Home</title><link rel=stylesheet href=/s.css></head>"
      + "<body><p>Hello</p><a href=/a>a</a> <a href='http://other.test/b'>b</a> <a href='/" + "x".repeat(200)
      + "'>long</a> <img src=/i.png></body></html>";
  private final CrawlStats stats = new CrawlStats();
  private final CrawlTask task = FakeChain.page("http://example.test/");

  private PageReader reader(boolean requisites) {
    return new PageReader(new LinkExtractor(new io.sievecrawl.crawler.url.UrlNormalizer(100, true), true,
        "sievecrawl", 1000), new ResultsSettings(true, true), requisites, stats);
  }

  @Test
  void aPagesLinksTitleTextAndRequisitesAreRead() throws Exception {
    Outcome.Complete page = (Outcome.Complete) reader(true).handle(FakeChain.fetched(task,
        FakeChain.response(200, "text/html", PAGE)));

    assertEquals(List.of("http://example.test/a", "http://other.test/b"),
        page.links().tasks().stream().map(CrawlTask::key).toList());
    assertEquals(1, page.links().tasks().get(0).depth());
    assertEquals(List.of("/" + "x".repeat(200)), page.links().tooLong(), "as the page wrote it");
    assertEquals(List.of("http://example.test/s.css", "http://example.test/i.png"),
        page.requisites().stream().map(CrawlTask::key).toList());
    assertEquals(0, page.requisites().get(0).depth(), "a requisite is no hop of its own");
    assertEquals("Home", page.result().title());
    assertEquals(3, page.result().outlinks());
  }

  @Test
  void withoutRequisitesNoneIsFound() throws Exception {
    Outcome.Complete page = (Outcome.Complete) reader(false).handle(FakeChain.fetched(task,
        FakeChain.response(200, "text/html", PAGE)));
    assertEquals(List.of(), page.requisites());
  }

  @Test
  void anErrorPageOrOneThatIsNoHtmlPassesOn() throws Exception {
    assertSame(FakeChain.PASSED, reader(true).handle(FakeChain.fetched(task,
        FakeChain.response(404, "text/html", PAGE))));
    assertSame(FakeChain.PASSED, reader(true).handle(FakeChain.fetched(task,
        FakeChain.response(200, "application/pdf", "%PDF"))));
  }
}

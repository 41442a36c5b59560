package io.sievecrawl.crawler.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.result.ErrorKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListingReaderTest {
  private static final String SITEMAP = "<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/"
      + "sitemap/0.9'><url><loc>http://example.test/a</loc></url><url><loc>http://example.test/b</loc></url>"
      + "</urlset>";
  private final ListingReader reader = new ListingReader(FakeChain.NORMALIZER, CrawlSettings.defaults().robots(),
      new CrawlStats());
  private final CrawlTask sitemap = new CrawlTask(FakeChain.url("http://example.test/sitemap.xml"), 1,
      "http://example.test/robots.txt", 0, 0, true);

  @Test
  void theUrlsASitemapListsAreOfferedAtItsDepth() throws Exception {
    Outcome.Complete listed = (Outcome.Complete) reader.handle(FakeChain.fetched(sitemap,
        FakeChain.response(200, "application/xml", SITEMAP)));
    assertEquals(List.of("http://example.test/a", "http://example.test/b"),
        listed.listed().stream().map(CrawlTask::key).toList());
    assertEquals(1, listed.listed().get(0).depth());
    assertEquals(2, listed.result().outlinks());
  }

  @Test
  void aSitemapThatIsNoneIsRecordedAsSuchAndASeedXmlOfAnotherKindAsAPageWithoutLinks() throws Exception {
    Outcome.Complete none = (Outcome.Complete) reader.handle(FakeChain.fetched(sitemap,
        FakeChain.response(200, "text/html", "<html><a href=/x>x</a></html>")));
    assertEquals(ErrorKind.NOT_A_SITEMAP, none.result().errorKind());

    Outcome.Complete other = (Outcome.Complete) reader.handle(FakeChain.fetched(
        FakeChain.page("http://example.test/data.xml"), FakeChain.response(200, "application/xml", "<data/>")));
    assertEquals(List.of(), other.listed());
    assertEquals(null, other.result().errorKind());
  }

  @Test
  void aSeedThatIsASitemapListsPagesAndAnHtmlPagePassesOn() throws Exception {
    Outcome.Complete seed = (Outcome.Complete) reader.handle(FakeChain.fetched(
        FakeChain.page("http://example.test/sitemap.xml"), FakeChain.response(200, "application/xml", SITEMAP)));
    assertEquals(2, seed.listed().size());
    assertSame(FakeChain.PASSED, reader.handle(FakeChain.fetched(FakeChain.page("http://example.test/"),
        FakeChain.response(200, "text/html", "<html></html>"))));
  }
}

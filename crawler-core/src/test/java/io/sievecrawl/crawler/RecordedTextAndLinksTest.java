package io.sievecrawl.crawler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.result.CrawlResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** results.text and results.links: a page's record carries its visible text, and its links with their fate. */
class RecordedTextAndLinksTest {
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite();
  private final WireMockServer server = loopback.server();
  private String root;

  @BeforeEach
  void serve() {
    root = loopback.root();
    Html.serve(server, "/", """
        <!doctype html><html><head><title>Home</title><style>p { color: red }</style>
        <script>var hidden = "not text";</script></head>
        <body><h1>Welcome</h1>
        <p>First   paragraph,
        with <b>bold</b> words.</p><script>document.write("nor this")</script>
        <a href="/next">Next</a> <a href="/#top">Home again</a>
        <a href="http://elsewhere.example/">Out</a></body></html>""");
    Html.serve(server, "/next", "<title>Next</title><p>No body tag here.</p>");
  }

  private CollectingSink crawl(boolean text, boolean links) {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L).set(Setting.RESULTS_TEXT, text).set(Setting.RESULTS_LINKS, links).build();
    CollectingSink sink = new CollectingSink();
    Crawler.create(settings, sink).run(List.of(root + "/"));
    return sink;
  }

  @Test
  void aPagesRecordCarriesItsVisibleTextAndItsLinksWithWhyEachWasNotFollowed() {
    CollectingSink sink = crawl(true, true);
    CrawlResult home = sink.get(root + "/");
    assertEquals("Home", home.title());
    assertEquals("Welcome\nFirst paragraph, with bold words.\nNext Home again Out", home.text(),
        "a line per block, no script, no style, white space collapsed");
    assertEquals(List.of(new CrawlResult.Link(root + "/next", null), new CrawlResult.Link(root + "/", "seen"),
        new CrawlResult.Link("http://elsewhere.example/", "out-of-scope-host")), home.links());
    CrawlResult next = sink.get(root + "/next");
    assertEquals("No body tag here.", next.text(), "without a <body>, the document less its title");
    assertEquals(List.of(), next.links());
  }

  @Test
  void offByDefault() {
    CrawlResult home = crawl(false, false).get(root + "/");
    assertNull(home.text());
    assertNull(home.links());
    assertEquals("Home", home.title(), "the title is always there");
  }
}

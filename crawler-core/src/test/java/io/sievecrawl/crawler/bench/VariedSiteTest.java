package io.sievecrawl.crawler.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.Crawler;
import io.sievecrawl.crawler.result.CrawlResult;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/** The varied site that trains the AOT cache: what it sends, and that a crawl reaches every page of it. */
class VariedSiteTest {
  @Test
  void aThirdOfThePagesComeGzippedAndAFifthInWindows1252NamedByAMetaTag() throws Exception {
    try (SyntheticSite site = SyntheticSite.startVaried(20, 4); HttpClient client = HttpClient.newHttpClient()) {
      HttpResponse<byte[]> gzipped = client.send(HttpRequest.newBuilder(URI.create(site.url(1)))
          .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());
      assertEquals("gzip", gzipped.headers().firstValue("Content-Encoding").orElse(null));
      assertEquals(0x1f, gzipped.body()[0] & 0xff, "a gzip member");

      HttpResponse<byte[]> latin = client.send(HttpRequest.newBuilder(URI.create(site.url(2))).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      assertEquals("text/html", latin.headers().firstValue("Content-Type").orElse(null), "no charset in the header");
      String text = new String(latin.body(), "windows-1252");
      assertTrue(text.contains("<meta charset=\"windows-1252\">") && text.contains("<table"), "varied markup");

      HttpResponse<String> plain = client.send(HttpRequest.newBuilder(URI.create(site.url(3))).build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      assertEquals(null, plain.headers().firstValue("Content-Encoding").orElse(null));
      assertTrue(plain.body().contains("<script") && plain.body().contains("&lt;T&gt;"), "varied markup");
    }
  }

  @Test
  void aCrawlReachesEveryPageThroughItsRelativeLinks() throws IOException {
    try (SyntheticSite site = SyntheticSite.startVaried(300, 3)) {
      Queue<CrawlResult> results = new ConcurrentLinkedQueue<>();
      CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
          .set(Setting.HOST_CONCURRENCY, 4).build();
      Crawler.builder(settings, results::add).build().run(List.of(site.rootUrl()));
      assertEquals(0, site.pagesNeverServed(), "every page fetched");
      long fetched = results.stream().filter(r -> r.status() == 200).count();
      long rich = results.stream().filter(r -> r.status() == 200 && r.outlinks() > 2 + 3 + 3).count();
      assertEquals(fetched, rich, "each page yields its table's, list's and map's links beside the plain ones");
      assertTrue(results.stream().anyMatch(r -> r.url().endsWith("?view=all&sort=name")), "queries followed");
      assertTrue(results.stream().anyMatch(r -> r.url().endsWith("/1/1.html?q=caf%C3%A9%20au%20lait")),
          "a query only the general URL parser reads");
      assertEquals(List.of(), results.stream().map(CrawlResult::url).filter(u -> !u.startsWith(site.rootUrl()))
          .toList(), "the links to other sites and the mailto:, javascript: and tel: links are not fetched");
    }
  }

  @Test
  void eachPageLinksToWhatACrawlDoesNotFollowAndHasElementsNoStandardNames() throws Exception {
    try (SyntheticSite site = SyntheticSite.startVaried(20, 4); HttpClient client = HttpClient.newHttpClient()) {
      String page = client.send(HttpRequest.newBuilder(URI.create(site.url(3))).build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)).body();
      for (String markup : List.of("href=\"https://www.example.org/", "href=\"mailto:", "href=\"javascript:",
          "href=\"tel:", "href=\"#\"", "href=\"https://api-docs.example/", "&copy 2026", "</i></span>",
          "<search-field ", "<textarea ", "<iframe src=\"../", "<meta name=\"Generator\"")) {
        assertTrue(page.contains(markup), markup);
      }
    }
  }
}

package io.sievecrawl.crawler.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rules kept by a crawl read back as the parser gave them: same verdicts, Crawl-delay and sitemaps. */
class RobotsRulesTest {
  private static final List<String> URLS = List.of("http://x/", "http://x/private/a", "http://x/private/ok",
      "http://x/caf%C3%A9", "http://x/a.pdf", "http://x/a.pdfx", "http://x/search?q=1", "http://x/%7Euser/");

  private static BaseRobotRules parse(String robotsTxt) {
    return new SimpleRobotRulesParser().parseContent("http://x/robots.txt",
        robotsTxt.getBytes(StandardCharsets.UTF_8), "text/plain", List.of("sievecrawl"));
  }

  @Test
  void rulesReadBackGiveTheSameVerdictsCrawlDelayAndSitemaps() throws Exception {
    BaseRobotRules parsed = parse("User-agent: *\nDisallow: /priv%61te/\nAllow: /private/ok\nDisallow: /caf\u00e9\n"
        + "Disallow: /*.pdf$\nDisallow: /search?\nDisallow: /~user/\nCrawl-delay: 2.5\n"
        + "Sitemap: http://x/sitemap.xml\nSitemap: http://x/news.xml\n");
    BaseRobotRules back = RobotsRules.decode(RobotsRules.encode(parsed));
    for (String url : URLS) {
      assertEquals(parsed.isAllowed(URI.create(url).toURL()), back.isAllowed(URI.create(url).toURL()), url);
    }
    assertTrue(!back.isAllowed(URI.create("http://x/private/a").toURL()), "some are disallowed");
    assertEquals(2_500, back.getCrawlDelay());
    assertEquals(List.of("http://x/sitemap.xml", "http://x/news.xml"), back.getSitemaps());
  }

  @Test
  void allowAllAndAllowNoneAreKeptAsSuch() throws Exception {
    BaseRobotRules all = RobotsRules.decode(RobotsRules.encode(
        new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL)));
    assertTrue(all.isAllowAll());
    assertEquals(BaseRobotRules.UNSET_CRAWL_DELAY, all.getCrawlDelay());
    BaseRobotRules none = RobotsRules.decode(RobotsRules.encode(
        new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_NONE)));
    assertTrue(none.isAllowNone());
    assertTrue(!none.isAllowed(URI.create("http://x/").toURL()));
  }

  @Test
  void somethingElseIsNotRead() {
    assertNull(RobotsRules.decode("User-agent: *\nDisallow: /\n".getBytes(StandardCharsets.UTF_8)));
    assertNull(RobotsRules.decode("sievecrawl-robots 1\nsome\nsoon\n".getBytes(StandardCharsets.UTF_8)));
    assertNull(RobotsRules.decode("sievecrawl-robots 1\nsome\n-\nX /a\n".getBytes(StandardCharsets.UTF_8)));
  }
}

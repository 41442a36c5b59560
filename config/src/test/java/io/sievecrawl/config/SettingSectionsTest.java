package io.sievecrawl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SettingSectionsTest {
  /** Every key at a value of its own, none the default. */
  private static final String EVERY_KEY_SET = """
      filter.n = 12345
      filter.p = 0.02
      filter.confirm = false
      filter.grow = false
      crawl.concurrency = 7
      crawl.max-pages = 11
      crawl.max-time = 13s
      crawl.max-depth = 17
      crawl.max-pages-per-host = 19
      crawl.allow-private-addresses = true
      crawl.max-links-per-page = 23
      crawl.scope = domain
      crawl.include = /a/
      crawl.exclude = /b/ /c/
      politeness.delay = 29ms
      politeness.adaptive = false
      politeness.response-time-factor = 31
      politeness.max-delay = 37ms
      politeness.host-concurrency = 41
      politeness.max-crawl-delay = 43ms
      politeness.honor-nofollow = false
      robots.obey = false
      robots.follow-sitemaps = false
      robots.cache-memory = 4700
      robots.agent-name = MyBot
      robots.retry-after = 53ms
      fetch.user-agent = ua/1
      fetch.contact = me@example.org
      fetch.header = X-A: 1
      fetch.connect-timeout = 59ms
      fetch.read-timeout = 61ms
      fetch.call-timeout = 67ms
      fetch.max-body-size = 7100
      fetch.max-redirects = 3
      fetch.max-retries = 4
      fetch.retry-backoff = 73ms
      fetch.max-retry-after = 79ms
      fetch.proxy = none
      fetch.ca-file = ca.pem
      fetch.resolve = a.test:80:127.0.0.1
      fetch.insecure-tls = true
      fetch.native-tls = false
      fetch.cookies = false
      frontier.sync-interval = 83ms
      frontier.checkpoint-interval = 89s
      frontier.lease-ttl = 97s
      frontier.redis-outage-grace = 101ms
      warc.dir = w
      warc.max-size = 1030000
      warc.prefix = pre
      warc.keep-credentials = true
      warc.dedup-digests = 127
      requisites.fetch = on
      requisites.scope = domain
      requisites.max-body-size = 2000000
      results.text = true
      results.links = true
      traps.max-url-length = 103
      traps.max-path-segments = 107
      traps.max-segment-repeats = 109
      traps.strip-session-ids = false
      recrawl.after = 3h
      recrawl.forget-after = 5
      """;

  private static CrawlSettings everyKeySet() {
    CrawlSettings.Builder builder = CrawlSettings.builder();
    ConfigFile.parse("all.conf", EVERY_KEY_SET, builder);
    return builder.build();
  }

  @Test
  void theFixtureSetsEveryKeyToAValueOtherThanItsDefault() {
    CrawlSettings s = everyKeySet();
    CrawlSettings defaults = CrawlSettings.defaults();
    for (Setting<?> setting : Setting.all()) {
      assertNotEquals("default", s.origin(setting), setting.key());
      assertNotEquals(String.valueOf(defaults.get(setting)), String.valueOf(s.get(setting)), setting.key());
    }
  }

  @Test
  void eachSectionHoldsTheValuesOfItsKeys() {
    CrawlSettings s = everyKeySet();
    assertEquals(new FilterSettings(12_345, 0.02, false, false), s.filter());
    CrawlLimits crawl = s.crawl();
    assertEquals(List.of(7, 11L, Duration.ofSeconds(13), 17, 19L, true, 23, Scope.DOMAIN, "[/a/]", "[/b/, /c/]"),
        List.of(crawl.concurrency(), crawl.maxPages(), crawl.maxTime(), crawl.maxDepth(), crawl.maxPagesPerHost(),
            crawl.allowPrivateAddresses(), crawl.maxLinksPerPage(), crawl.scope(), crawl.include().toString(),
            crawl.exclude().toString()));
    assertEquals(new PolitenessSettings(Duration.ofMillis(29), false, 31, Duration.ofMillis(37), 41,
        Duration.ofMillis(43), false), s.politeness());
    assertEquals(new RobotsSettings(false, false, 4_700, "mybot", Duration.ofMillis(53)), s.robots());
    assertEquals(new FetchSettings("ua/1", "me@example.org", List.of(new RequestHeader("X-A", "1")),
        Duration.ofMillis(59), Duration.ofMillis(61), Duration.ofMillis(67), 7_100, 3, 4, Duration.ofMillis(73),
        Duration.ofMillis(79), "none", "ca.pem", List.of(HostPin.parse("a.test:80:127.0.0.1")), true, false,
        false),
        s.fetch());
    assertEquals(new FrontierSettings(Duration.ofMillis(83), Duration.ofSeconds(89), Duration.ofSeconds(97),
        Duration.ofMillis(101)), s.frontier());
    assertEquals(new WarcSettings("w", 1_030_000, "pre", true, 127), s.warc());
    assertEquals(new RequisiteSettings(true, Scope.DOMAIN, 2_000_000), s.requisites());
    assertEquals(new ResultsSettings(true, true), s.results());
    assertEquals(new TrapSettings(103, 107, 109, false), s.traps());
    assertEquals(new RecrawlSettings(Duration.ofHours(3), 5), s.recrawl());
  }

  @Test
  void aSectionReflectsAValueSetInCode() {
    CrawlSettings s = CrawlSettings.builder().set(Setting.MAX_RETRIES, 7).set(Setting.DELAY, Duration.ofMillis(5))
        .set(Setting.EXCLUDE, List.of(Pattern.compile("x"))).build();
    assertEquals(7, s.fetch().maxRetries());
    assertEquals(Duration.ofMillis(5), s.politeness().delay());
    assertEquals("x", s.crawl().exclude().get(0).pattern());
    assertEquals(CrawlSettings.defaults().fetch().retryBackoff(), s.fetch().retryBackoff());
  }

  @Test
  void theListsOfASectionAreItsOwn() {
    List<RequestHeader> headers = new ArrayList<>(List.of(new RequestHeader("X-A", "1")));
    FetchSettings fetch = new FetchSettings("ua", "", headers, Duration.ZERO, Duration.ZERO, Duration.ZERO, 1, 0, 0,
        Duration.ZERO, Duration.ZERO, "", "", new ArrayList<>(), false, true, false);
    headers.add(new RequestHeader("X-B", "2"));
    assertEquals(1, fetch.headers().size());
    assertThrows(UnsupportedOperationException.class, () -> fetch.headers().add(new RequestHeader("X-C", "3")));
    assertThrows(UnsupportedOperationException.class, () -> CrawlSettings.defaults().crawl().include().clear());
  }

  @Test
  void requisitesAreFetchedByDefaultWithWarcOutputOnly() {
    assertFalse(CrawlSettings.defaults().requisites().fetch());
    assertTrue(CrawlSettings.builder().set(Setting.WARC_DIR, "w").build().requisites().fetch());
    assertFalse(CrawlSettings.builder().set(Setting.WARC_DIR, "w").set(Setting.REQUISITES_FETCH, RequisiteFetch.OFF)
        .build().requisites().fetch());
    assertTrue(CrawlSettings.builder().set(Setting.REQUISITES_FETCH, RequisiteFetch.ON).build().requisites().fetch());
  }

  @Test
  void theRobotsAgentNameIsTheConfiguredOneOrTheUserAgentsCrawlerToken() {
    assertEquals("mine", RobotsSettings.agentNameOf("Mine", "acmebot/1"));
    assertEquals("acmebot", RobotsSettings.agentNameOf("", "Mozilla/5.0 (compatible; AcmeBot/1)"));
    assertEquals("sievecrawl", RobotsSettings.agentNameOf("", "Mozilla/5.0"));
    assertEquals("sievecrawl", CrawlSettings.defaults().robots().agentName());
  }

  @Test
  void theUserAgentHeaderCarriesTheContactOnce() {
    FetchSettings fetch = CrawlSettings.builder().set(Setting.USER_AGENT, "bot/1")
        .set(Setting.CONTACT, "me@example.org").build().fetch();
    assertEquals("bot/1 (+me@example.org)", fetch.userAgentHeader());
    FetchSettings named = CrawlSettings.builder().set(Setting.USER_AGENT, "bot/1 (+me@example.org)")
        .set(Setting.CONTACT, "me@example.org").build().fetch();
    assertEquals("bot/1 (+me@example.org)", named.userAgentHeader());
    assertFalse(CrawlSettings.defaults().fetch().userAgentHeader().contains("(+"));
    assertTrue(CrawlSettings.defaults().fetch().userAgentHeader().startsWith("sievecrawl/"));
  }
}

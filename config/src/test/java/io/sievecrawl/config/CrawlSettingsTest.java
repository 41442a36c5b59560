package io.sievecrawl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class CrawlSettingsTest {

  @Test
  void everyDefaultIsValid() {
    CrawlSettings defaults = CrawlSettings.defaults();
    assertEquals(10_000_000, defaults.filter().expectedUrls());
    assertEquals(0.001, defaults.filter().falsePositiveRate());
    assertEquals(Duration.ofSeconds(1), defaults.politeness().delay());
    assertTrue(defaults.politeness().adaptive());
    assertEquals(1, defaults.politeness().hostConcurrency());
    assertEquals(10_000_000, defaults.fetch().maxBodySize());
    assertEquals(Scope.HOST, defaults.crawl().scope());
    assertTrue(defaults.fetch().userAgent().startsWith("sievecrawl/"), defaults.fetch().userAgent());
    assertEquals(Setting.all().size(), defaults.describe().size());
  }

  @Test
  void describeSaysWhichValuesNotFromTheDefaultsDifferFromThem() {
    CrawlSettings.Builder loaded = CrawlSettings.builder();
    ConfigFile.parse("copy.conf", "filter.n = 10M\nfilter.p = 0.01\n", loaded);
    List<String> described = loaded.build().describe();
    assertTrue(described.contains("filter.n = 10M    # copy.conf:1, as the default"), described.toString());
    assertTrue(described.contains("filter.p = 0.01    # copy.conf:2, default 0.001"), described.toString());
    assertTrue(described.contains("crawl.scope = host    # default"), described.toString());
  }

  @Test
  void theConfigTextOfSettingsLoadsBackToEqualSettings() {
    CrawlSettings changed = CrawlSettings.builder().set(Setting.FILTER_N, 12_345_678L).set(Setting.FILTER_P, 1e-4)
        .set(Setting.DELAY, Duration.ofMillis(250)).set(Setting.USER_AGENT, "sievecrawl/1.0 (+https://example.org)")
        .set(Setting.MAX_BODY_SIZE, 1_234_567L).build();
    CrawlSettings awkward = CrawlSettings.builder()
        .set(Setting.USER_AGENT, "bot \"quoted\" (+https://example.org/#about \"x\")").set(Setting.CONTACT, "\"")
        .set(Setting.EXCLUDE, List.of(Pattern.compile("#top"), Pattern.compile("a\"b"), Pattern.compile("\"$")))
        .build();
    for (String text : List.of(awkward.toConfigText(), String.join("\n", awkward.describe()))) {
      CrawlSettings.Builder loaded = CrawlSettings.builder();
      ConfigFile.parse("settings.conf", text, loaded);
      CrawlSettings back = loaded.build();
      assertEquals(awkward.fetch().userAgent(), back.fetch().userAgent(), text);
      assertEquals(awkward.fetch().contact(), back.fetch().contact(), text);
      assertEquals(comparable(awkward.crawl().exclude()), comparable(back.crawl().exclude()), text);
    }
    for (String text : List.of(changed.toConfigText(), String.join("\n", changed.describe()))) {
      CrawlSettings.Builder loaded = CrawlSettings.builder();
      ConfigFile.parse("settings.conf", text, loaded);
      CrawlSettings back = loaded.build();
      for (Setting<?> s : Setting.all()) {
        assertEquals(comparable(changed.get(s)), comparable(back.get(s)), s.key());
      }
    }
  }

  /** Patterns have no equals: compare their sources. */
  private static Object comparable(Object value) {
    return value instanceof List<?> patterns ? patterns.toString() : value;
  }

  @Test
  void numbersNeverWrapAndGroupsAreOfThree() {
    assertThrows(IllegalArgumentException.class, () -> Values.parseDuration("18446744073709551716ms"));
    assertThrows(IllegalArgumentException.class, () -> Values.parseSize("18446744073709553664b"));
    assertThrows(IllegalArgumentException.class, () -> Values.parseCount("1,,,0"));
    assertThrows(IllegalArgumentException.class, () -> Values.parseCount("1,00"));
    assertEquals(10_000_000L, Values.parseCount("10,000,000"));
    assertEquals(10_000_000L, Values.parseCount("10_000_000"));
    assertEquals(1_234_567L, Values.parseSize(Values.formatSizeExact(1_234_567L)));
    assertEquals("10MB", Values.formatSizeExact(10_000_000L));
  }

  @Test
  void reportsEveryProblemAtOnceWithKeyValueAndRange() {
    SettingsException e = assertThrows(SettingsException.class, () -> CrawlSettings.builder()
        .parse(Setting.FILTER_N, "0", "crawl.conf:3")
        .parse(Setting.FILTER_P, "2", "crawl.conf:4")
        .parse(Setting.DELAY, "fast", "--delay")
        .parse(Setting.CONCURRENCY, "20000", "crawl.conf:9")
        .build());
    assertEquals(List.of(
        "crawl.conf:3: filter.n = 0: must be between 1 and 100G",
        "crawl.conf:4: filter.p = 2: must be between 1e-10 and 0.5",
        "crawl.conf:9: crawl.concurrency = 20000: must be between 1 and 10,000",
        "--delay: politeness.delay = fast: expected a duration with a unit such as 500ms, 10s, 2m or 1h"),
        e.problems().stream().map(Problem::toString).toList());
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"}) // a raw setting takes a value of any type, as a caller's bug could
  void typedValuesSetInCodeAreCheckedToo() {
    SettingsException e = assertThrows(SettingsException.class,
        () -> CrawlSettings.builder().set(Setting.DELAY, Duration.ofHours(2)).set((Setting) Setting.MAX_DEPTH, "x")
            .build());
    assertEquals(List.of("code: crawl.max-depth = x: must be a whole number",
            "code: politeness.delay = 2h: must be between 0ms and 1h").stream().sorted().toList(),
        e.problems().stream().map(Problem::toString).sorted().toList());
  }

  @Test
  void countsAcceptPlainSuffixedAndScientificForms() {
    assertEquals(10_000_000, Values.parseCount("10000000"));
    assertEquals(10_000_000, Values.parseCount("10M"));
    assertEquals(10_000_000, Values.parseCount("1e7"));
    assertEquals(10_000_000, Values.parseCount("10_000_000"));
    assertEquals(2_500, Values.parseCount("2.5k"));
    assertThrows(IllegalArgumentException.class, () -> Values.parseCount("1.5"));
    assertThrows(IllegalArgumentException.class, () -> Values.parseCount("-3"));
    assertThrows(IllegalArgumentException.class, () -> Values.parseCount("ten"));
  }

  /** Whole numbers are parsed as longs and the rest as decimals: both exact up to Long.MAX_VALUE, and no further. */
  @Test
  void wholeAndDecimalValuesAreExactUpToTheLargestLongAndRefusedBeyond() {
    assertEquals(7, Values.parseCount("007"));
    assertEquals(999_999_999_999_999_999L, Values.parseCount("999_999_999_999_999_999"));
    assertEquals(Long.MAX_VALUE, Values.parseCount("9223372036854775807"));
    assertEquals(9_000_000_000_000_000_000L, Values.parseCount("9000000T"));
    assertEquals(9_000_000_000_000_000_000L, Values.parseCount("9e18"));
    for (String tooLarge : List.of("9223372036854775808", "9300000T", "10e18", "9.3e6T")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Values.parseCount(tooLarge));
      assertEquals("expected a whole number no larger than 9,223,372,036,854,775,807", e.getMessage(), tooLarge);
    }
    assertEquals((1L << 63) - (1L << 40), Values.parseSize("8388607TiB"));
    assertEquals(Long.MAX_VALUE, Values.parseSize("9223372036854775807"));
    assertThrows(IllegalArgumentException.class, () -> Values.parseSize("8388608TiB"));
    assertEquals(Duration.ofDays(106_751_991_167L), Values.parseDuration("106751991167d"));
    assertEquals(Duration.ofMillis(2), Values.parseDuration("1.5ms"), "rounded half up");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Values.parseDuration("106751991168d"));
    assertEquals("expected a duration no longer than 9,223,372,036,854,775,807ms", e.getMessage());
  }

  @Test
  void durationsSizesAndRatesUseHumanUnits() {
    assertEquals(Duration.ofMillis(500), Values.parseDuration("500ms"));
    assertEquals(Duration.ofMillis(1500), Values.parseDuration("1.5s"));
    assertEquals(Duration.ofMinutes(2), Values.parseDuration("2m"));
    assertEquals(10_000_000, Values.parseSize("10MB"));
    assertEquals(1 << 20, Values.parseSize("1MiB"));
    assertEquals(0.01, Values.parseRate("1%"), 1e-15);
    assertEquals(0.001, Values.parseRate("1e-3"));
    assertThrows(IllegalArgumentException.class, () -> Values.parseDuration("10"));
    assertEquals("250ms", Values.formatDuration(Duration.ofMillis(250)));
    assertEquals("2m", Values.formatDuration(Duration.ofMinutes(2)));
    assertEquals("2.40GB", Values.formatSize(2_400_000_000L));
  }

  @Test
  void unknownKeysGetTheNearestKnownKey() {
    assertEquals(Optional.of("politeness.delay"), Setting.closestKey("politeness.dealy"));
    assertEquals(Optional.of("crawl.concurrency"), Setting.closestKey("concurency"));
    assertEquals(Optional.empty(), Setting.closestKey("completely.unrelated.thing"));
  }

  @Test
  void theRobotsTokenIsTheFirstProductTokenThatNamesACrawler() {
    assertEquals("sievecrawl", withAgent("sievecrawl/0.1.0").robots().agentName());
    assertEquals("sievecrawl", withAgent("Mozilla/5.0 (compatible; sievecrawl/1.0)").robots().agentName());
    assertEquals("sievecrawl", withAgent("*/1.0").robots().agentName(), "never the wildcard");
    assertEquals("acmebot", withAgent("AcmeBot/2 (+https://acme.example/bot)").robots().agentName());
    assertEquals("mine", CrawlSettings.builder().set(Setting.ROBOTS_AGENT, "Mine").build().robots().agentName());
    assertThrows(SettingsException.class, () -> CrawlSettings.builder().set(Setting.ROBOTS_AGENT, "my bot").build());
  }

  @Test
  void theContactGoesIntoTheUserAgent() {
    CrawlSettings s = CrawlSettings.builder().set(Setting.CONTACT, "https://example.org/crawler").build();
    assertTrue(s.fetch().userAgentHeader().startsWith("sievecrawl/"), s.fetch().userAgentHeader());
    assertTrue(s.fetch().userAgentHeader().endsWith(" (+https://example.org/crawler)"),
        s.fetch().userAgentHeader());
    assertEquals(CrawlSettings.defaults().fetch().userAgent(), CrawlSettings.defaults().fetch().userAgentHeader());
  }

  private static CrawlSettings withAgent(String agent) {
    return CrawlSettings.builder().set(Setting.USER_AGENT, agent).build();
  }
}

package io.sievecrawl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigFileTest {

  private static CrawlSettings parse(String text) {
    CrawlSettings.Builder builder = CrawlSettings.builder();
    ConfigFile.parse("crawl.conf", text, builder);
    return builder.build();
  }

  @Test
  void readsSectionsQualifiedKeysCommentsAndQuotes() {
    CrawlSettings s = parse("""
        \uFEFF# a comment
        ; another comment
        [filter]
        n = 50M
        p = 1%

        [politeness]
        delay = 250ms
        fetch.user-agent = "mybot/1.0 (+https://example.com/bot)"
        """);
    assertEquals(50_000_000, s.filter().expectedUrls());
    assertEquals(0.01, s.filter().falsePositiveRate(), 1e-15);
    assertEquals(Duration.ofMillis(250), s.politeness().delay());
    assertEquals("mybot/1.0 (+https://example.com/bot)", s.fetch().userAgent());
    assertEquals("crawl.conf:4", s.origin(Setting.FILTER_N));
    assertEquals("default", s.origin(Setting.CONCURRENCY));
  }

  @Test
  void reportsEveryProblemWithFileLineKeyValueAndRule() {
    SettingsException e = assertThrows(SettingsException.class, () -> parse("""
        [filter]
        n = lots
        p = 0.9
        [politeness]
        dealy = 1s
        delay = 1s
        delay = 2s
        this line is wrong
        [nonsense]
        """));
    assertEquals(List.of(
        "crawl.conf:2: filter.n = lots: expected a whole number such as 10000000, 10M or 1e7",
        "crawl.conf:3: filter.p = 0.9: must be between 1e-10 and 0.5",
        "crawl.conf:5: politeness.dealy = 1s: unknown key; did you mean politeness.delay?",
        "crawl.conf:7: politeness.delay = 2s: already set on line 6",
        "crawl.conf:8: this line is wrong: expected 'name = value' or '[section]'",
        "crawl.conf:9: [nonsense]: unknown section; known sections are filter, crawl, politeness, robots, fetch,"
            + " frontier, warc, requisites, results, traps, recrawl"),
        e.problems().stream().map(Problem::toString).toList(), "in line order");
  }

  @Test
  void aMissingFileIsReportedByName(@TempDir Path dir) {
    NoSuchFileException e = assertThrows(NoSuchFileException.class,
        () -> ConfigFile.load(dir.resolve("nope.conf"), CrawlSettings.builder()));
    assertTrue(e.getMessage().contains("nope.conf"), e.getMessage());
  }

  @Test
  void theShippedExampleListsEverySettingAtItsDefault() throws IOException {
    Path example = Path.of("sievecrawl.conf");
    String text = Files.readString(example);
    for (Setting<?> s : Setting.all()) {
      String section = "[" + s.key().substring(0, s.key().indexOf('.')) + "]";
      String line = s.key().substring(section.length() - 1) + " =" + (s.defaultText().isEmpty() ? "" : " " + s.defaultText());
      assertTrue(text.contains(section), section);
      assertTrue(text.lines().anyMatch(l -> l.equals(line)), "the example should hold the line '" + line + "'");
    }
    CrawlSettings.Builder builder = CrawlSettings.builder();
    ConfigFile.load(example, builder);
    CrawlSettings loaded = builder.build();
    CrawlSettings defaults = CrawlSettings.defaults();
    for (Setting<?> s : Setting.all()) {
      assertEquals(formatted(defaults, s), formatted(loaded, s), s.key());
    }
  }

  private static <T> String formatted(CrawlSettings settings, Setting<T> s) {
    return s.type().format(settings.get(s));
  }

  @Test
  void aTrailingCommentEndsEveryKindOfValueAndQuotesKeepAHash() {
    CrawlSettings.Builder b = CrawlSettings.builder();
    ConfigFile.parse("c.conf", """
        filter.n = 5M   # five million
        politeness.delay = 2s # slow
        crawl.exclude = /private/ \\.pdf$  # two patterns
        fetch.user-agent = "bot/1.0 (#1)"  # quoted: the hash is kept
        crawl.scope = domain #comment without a space after the hash
        robots.obey = false#not a comment: no space before
        """, b);
    SettingsException e = assertThrows(SettingsException.class, b::build);
    assertEquals(1, e.problems().size(), e.getMessage());
    assertTrue(e.problems().get(0).toString().contains("robots.obey = false#not a comment"), e.getMessage());

    CrawlSettings.Builder ok = CrawlSettings.builder();
    ConfigFile.parse("c.conf", """
        filter.n = 5M   # five million
        politeness.delay = 2s # slow
        crawl.exclude = /private/ \\.pdf$  # two patterns
        fetch.user-agent = "bot/1.0 (#1)"  # quoted: the hash is kept
        crawl.scope = domain #comment
        """, ok);
    CrawlSettings s = ok.build();
    assertEquals(5_000_000L, s.filter().expectedUrls());
    assertEquals(java.time.Duration.ofSeconds(2), s.politeness().delay());
    assertEquals(2, s.crawl().exclude().size());
    assertEquals("bot/1.0 (#1)", s.fetch().userAgent());
    assertEquals(Scope.DOMAIN, s.crawl().scope());
  }
}

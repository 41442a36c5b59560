package io.sievecrawl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ValueTypeTest {

  /** Defaults written otherwise than their type writes them: a duration in its largest whole unit. */
  private static final Map<Setting<?>, String> WRITTEN_OTHERWISE = Map.of(Setting.MAX_TIME, "0ms",
      Setting.CALL_TIMEOUT, "1m", Setting.REDIS_OUTAGE_GRACE, "1m");

  @Test
  void everyDefaultParsesAndFormatsBackToItsText() {
    for (Setting<?> s : Setting.all()) {
      assertEquals(WRITTEN_OTHERWISE.getOrDefault(s, s.defaultText()), formattedDefault(s), s.key());
      assertDefaultRoundTrips(s);
    }
  }

  private static <T> String formattedDefault(Setting<T> s) {
    return s.type().format(s.parse(s.defaultText()));
  }

  private static <T> void assertDefaultRoundTrips(Setting<T> s) {
    assertRoundTrips(s.type(), s.parse(s.defaultText()));
  }

  @Test
  void aRangeReadsAsTheCheckThatEnforcesItSays() {
    assertEquals(Optional.of("1 to 100G"), Setting.FILTER_N.type().range());
    assertEquals(Optional.of("1e-10 to 0.5"), Setting.FILTER_P.type().range());
    assertEquals(Optional.of("1 to 10,000"), Setting.CONCURRENCY.type().range());
    assertEquals(Optional.of("at least 0"), Setting.MAX_PAGES.type().range(), "Long.MAX_VALUE is no bound");
    assertEquals(Optional.of("0ms to 1h"), Setting.DELAY.type().range());
    assertEquals(Optional.of("1.02KB to 2.15GB"), Setting.ROBOTS_CACHE_MEMORY.type().range());
    assertEquals(Optional.empty(), Setting.OBEY_ROBOTS.type().range());
    // Every setting with a range names the same bounds when a value past its largest is refused.
    for (Setting<?> s : Setting.all()) {
      Optional<String> range = s.type().range();
      if (range.isPresent() && s.type().largest().isPresent() && range.get().contains(" to ")) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> checkPastLargest(s.type()),
            s.key());
        assertEquals("must be between " + range.get().replace(" to ", " and "), e.getMessage(), s.key());
      }
    }
  }

  private static <T> void checkPastLargest(ValueType<T> type) {
    T largest = type.largest().orElseThrow();
    Object past = switch (largest) {
      case Long l -> l + 1;
      case Integer i -> i + 1;
      case Double d -> d * 2;
      case Duration d -> d.plusMillis(1);
      default -> throw new AssertionError(largest);
    };
    type.check(type.cast(past));
  }

  @Test
  void eachValueTypeRoundTripsThroughConfigText() {
    for (long count : List.of(0L, 7L, 2_500L, 10_000_000L, 123_456_789_012L, Long.MAX_VALUE)) {
      assertRoundTrips(ValueType.count(0, Long.MAX_VALUE), count);
    }
    for (int n : List.of(0, 17, 10_000)) {
      assertRoundTrips(ValueType.integer(0, 10_000), n);
    }
    for (double rate : List.of(1e-10, 0.001, 0.123, 0.5)) {
      assertRoundTrips(ValueType.rate(1e-10, 0.5), rate);
    }
    for (Duration d : List.of(Duration.ZERO, Duration.ofMillis(1), Duration.ofMillis(1_500), Duration.ofMinutes(2),
        Duration.ofSeconds(90), Duration.ofDays(1))) {
      assertRoundTrips(ValueType.duration(Duration.ZERO, Duration.ofDays(1)), d);
    }
    for (long bytes : List.of(1_024L, 1_234_567L, 10_000_000L, 1L << 30)) {
      assertRoundTrips(ValueType.size(0, Long.MAX_VALUE), bytes);
    }
    assertRoundTrips(ValueType.bool(), true);
    assertRoundTrips(ValueType.bool(), false);
    for (String text : List.of("", "bot/1.0 (#1)", "say \"hi\" (#2)")) {
      assertRoundTrips(ValueType.text(), text);
    }
    for (Scope scope : Scope.values()) {
      assertRoundTrips(ValueType.scope(), scope);
    }
    assertRoundTrips(ValueType.pins(), List.of(HostPin.parse("a.test:80:127.0.0.1"), HostPin.parse("b.test:*:[::1]")));
    ValueType<List<Pattern>> patterns = ValueType.patterns();
    List<Pattern> regexes = List.of(Pattern.compile("/a/"), Pattern.compile("\\.pdf$"), Pattern.compile("#top"));
    assertEquals(regexes.toString(), patterns.parse(ConfigFile.valueOf(only(patterns.configValues(regexes, false))))
        .toString());
  }

  @Test
  void headersAreWrittenOneALineAndReadBackByAddingEachLine() {
    ValueType<List<RequestHeader>> headers = ValueType.headers();
    List<RequestHeader> given = List.of(new RequestHeader("Accept-Language", "fr"),
        new RequestHeader("Authorization", "Bearer abc"));
    List<RequestHeader> back = new ArrayList<>();
    for (String line : headers.configValues(given, false)) {
      back.addAll(headers.parse(ConfigFile.valueOf(line)));
    }
    assertEquals(given, back);
    assertEquals(List.of("\"Accept-Language: fr\"", "\"Authorization: <hidden>\""), headers.configValues(given, true));
    assertEquals(List.of("\"\""), headers.configValues(List.of(), false));
    assertEquals("Accept-Language: fr, Authorization: Bearer abc", headers.format(given));
  }

  @Test
  void sizesAreShownRoundedAndWrittenExactly() {
    ValueType<Long> size = ValueType.size(0, Long.MAX_VALUE);
    assertEquals("1.23MB", size.format(1_234_567L));
    assertEquals(List.of("1234567"), size.configValues(1_234_567L, false));
    assertEquals(List.of("10MB"), size.configValues(10_000_000L, false));
  }

  @Test
  void rangesAreCheckedWithTheRuleInTheirOwnUnits() {
    assertRule("must be between 1 and 100G", () -> Setting.FILTER_N.parse("0"));
    assertRule("must be at least 0", () -> Setting.MAX_PAGES.type().check(-1L));
    assertRule("must be between 16 and 1M", () -> Setting.MAX_URL_LENGTH.parse("15"));
    assertRule("must be between 16 and 1M", () -> Setting.MAX_URL_LENGTH.parse("3e9")); // past an int: its range
    assertRule("must be between 1 and 10,000", () -> Setting.CONCURRENCY.type().check(10_001));
    assertRule("must be between 1.02KB and 2.15GB", () -> Setting.ROBOTS_CACHE_MEMORY.parse("1023"));
    assertRule("must be between 1ms and 10m", () -> Setting.CONNECT_TIMEOUT.parse("0s"));
    assertRule("must be between 1e-10 and 0.5", () -> Setting.FILTER_P.parse("0.6"));
    assertEquals(Duration.ofMinutes(10), Setting.LEASE_TTL.type().largest().orElseThrow());
    assertEquals(Optional.empty(), Setting.SCOPE.type().largest());
  }

  @Test
  void aValueOfAnotherTypeIsNamedByTheTypeItMustBe() {
    assertRule("must be a duration, e.g. 500ms, 10s, 2m", () -> Setting.DELAY.type().cast("1s"));
    assertRule("must be a whole number", () -> Setting.MAX_DEPTH.type().cast(3L));
    assertRule("must be a NAME: VALUE; the key may be repeated", () -> Setting.HEADER.type().cast("X-A: 1"));
    assertRule("must be a list of request headers", () -> Setting.HEADER.type().cast(List.of("X-A: 1")));
    assertEquals(Duration.ofSeconds(2), Setting.DELAY.type().cast(Duration.ofSeconds(2)));
    assertEquals("2h", Setting.DELAY.type().textOf(Duration.ofHours(2)));
  }

  @Test
  void theTextRulesOfASettingAreItsOwn() {
    assertRule("must be letters, digits, '.', '_' and '-'", () -> Setting.WARC_PREFIX.parse("a b"));
    assertRule("must not be empty", () -> Setting.WARC_PREFIX.parse(" "));
    assertRule("must be a product token of letters, '_' and '-' (RFC 9309)", () -> Setting.ROBOTS_AGENT.parse("a b"));
    assertRule("must be printable ASCII", () -> Setting.CONTACT.parse("caf\u00e9"));
    assertEquals("a b", Setting.WARC_DIR.parse("a b"));
    assertEquals("my bot/1", Setting.USER_AGENT.parse("my bot/1"));
    assertEquals("", Setting.ROBOTS_AGENT.parse(""));
    String proxyRule = assertThrows(IllegalArgumentException.class, () -> Setting.PROXY.parse("socks5://x:1"))
        .getMessage();
    assertTrue(proxyRule.startsWith("must be empty, none or "), proxyRule);
  }

  private static <T> void assertRoundTrips(ValueType<T> type, T value) {
    assertEquals(value, type.parse(ConfigFile.valueOf(only(type.configValues(value, false)))), type.description());
    if (!(type instanceof SizeType)) { // sizes are shown rounded
      assertEquals(value, type.parse(type.format(value)), type.description());
    }
    type.check(value);
  }

  private static String only(List<String> lines) {
    assertEquals(1, lines.size(), lines.toString());
    return lines.get(0);
  }

  private static void assertRule(String rule, Executable check) {
    assertEquals(rule, assertThrows(IllegalArgumentException.class, check).getMessage());
  }
}

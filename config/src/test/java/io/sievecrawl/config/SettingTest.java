package io.sievecrawl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SettingTest {

  @Test
  void allHoldsEverySettingOnceInTheOrderOfTheTable() {
    List<Setting<?>> all = Setting.all();
    assertSame(Setting.FILTER_N, all.get(0));
    assertSame(Setting.FILTER_P, all.get(1));
    assertSame(Setting.RECRAWL_FORGET_AFTER, all.get(all.size() - 1));
    Set<String> keys = new HashSet<>();
    for (Setting<?> s : all) {
      assertTrue(keys.add(s.key()), "spelled once: " + s.key());
      assertEquals(Optional.of(s), Setting.forKey(s.key()));
      assertEquals(s.key(), s.toString());
    }
    assertEquals(List.of("filter", "crawl", "politeness", "robots", "fetch", "frontier", "warc", "requisites", "results", "traps",
        "recrawl"),
        all.stream().map(Setting::section).distinct().toList(), "each section's keys together");
    assertThrows(UnsupportedOperationException.class, () -> all.remove(0));
    assertEquals(Optional.empty(), Setting.forKey("filter.nn"));
  }

  @Test
  void onlyFetchHeaderIsRepeatable() {
    assertEquals(List.of(Setting.HEADER), Setting.all().stream().filter(Setting::repeatable).toList());
    assertFalse(Setting.RESOLVE.repeatable());
  }

  @Test
  void parsingChecksTheRangeAndGivesTheTypedValue() {
    long n = Setting.FILTER_N.parse("10M");
    int concurrency = Setting.CONCURRENCY.parse("1e3");
    assertEquals(10_000_000L, n);
    assertEquals(1_000, concurrency);
    assertEquals("must be between 1 and 10,000",
        assertThrows(IllegalArgumentException.class, () -> Setting.CONCURRENCY.parse("10001")).getMessage());
  }
}

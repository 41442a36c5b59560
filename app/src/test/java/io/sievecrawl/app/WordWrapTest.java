package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class WordWrapTest {
  @Test
  void aLineIsWrappedAtSpacesWithItsContinuationsIndented() {
    assertEquals(List.of(
        "  errors by kind:  timeout 1,234,",
        "      connect 56, tls 3, network 2,",
        "      http-5xx 12"),
        WordWrap.wrap("  errors by kind:  timeout 1,234, connect 56, tls 3, network 2, http-5xx 12", 36));
  }

  @Test
  void aLineThatFitsIsLeftAlone() {
    assertEquals(List.of("  URLs admitted:   1,208"), WordWrap.wrap("  URLs admitted:   1,208", 24));
  }

  @Test
  void aWordLongerThanTheLineIsKeptWhole() {
    assertEquals(List.of("  origins given up:", "      https://a-very-long-host-name.example.com", "      (refused)"),
        WordWrap.wrap("  origins given up: https://a-very-long-host-name.example.com (refused)", 30));
  }

  @Test
  void eachLineOfTheTextIsWrappedOnItsOwn() {
    assertEquals(List.of("crawl stopped:", "    12 pages", "  next line"),
        WordWrap.wrap("crawl stopped: 12 pages\n  next line", 16));
  }
}

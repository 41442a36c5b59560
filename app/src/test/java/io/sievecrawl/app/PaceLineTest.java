package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import org.junit.jupiter.api.Test;

class PaceLineTest {
  private static String pace(String delay, String adaptive, String hostConcurrency) {
    CrawlSettings.Builder builder = CrawlSettings.builder();
    builder.parse(Setting.DELAY, delay, "test");
    builder.parse(Setting.ADAPTIVE, adaptive, "test");
    builder.parse(Setting.HOST_CONCURRENCY, hostConcurrency, "test");
    return PaceLine.of(builder.build().politeness());
  }

  @Test
  void theDefaultsSayTheyArePoliteAndHowToGoFaster() {
    assertEquals("polite: 1 request at a time per site, 1s apart or more, as each server answers;"
        + " --delay 0ms --host-concurrency 8 for your own servers", PaceLine.of(CrawlSettings.defaults().politeness()));
    assertEquals("polite: 2 requests at a time per site, 250ms apart; --delay 0ms --host-concurrency 8 for your own"
        + " servers", pace("250ms", "false", "2"));
  }

  @Test
  void aCrawlAtFullSpeedSaysSoWithoutTheHint() {
    assertEquals("pace: 8 requests at a time per site, no delay", pace("0ms", "false", "8"));
    assertEquals("pace: 1 request at a time per site, no delay; --host-concurrency 8 for your own servers",
        pace("0ms", "false", "1"), "only the flag that would change something");
  }
}

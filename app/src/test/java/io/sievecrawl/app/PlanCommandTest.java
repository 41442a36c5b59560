package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.BloomSizing;
import org.junit.jupiter.api.Test;

class PlanCommandTest {
  @Test
  void aFilterLargerThanTheDefaultHeapSaysWhichHeapTheCrawlNeeds() {
    BloomSizing fiveBillion = BloomSizing.of(5_000_000_000L, 0.001);
    long megabytes = FilterFit.heapMegabytes(fiveBillion);
    assertEquals((fiveBillion.bytes() + (96L << 20)) * 5 / 4 >> 20, megabytes);
    assertEquals(String.format(java.util.Locale.ROOT, "heap: the crawl needs about %,d MiB (the filter, 96 MiB"
        + " besides, a quarter more for the collector), more than the default heap here (6,144 MiB): run it with"
        + " SIEVECRAWL_OPTS=-Xmx%dm", megabytes, megabytes), FilterFit.heapLine(fiveBillion, 6L << 30));
    assertTrue(Runtime.getRuntime().maxMemory() < fiveBillion.bytes(), "the test's own heap is smaller");
    Cmd plan = Cmd.run("plan", "-n", "5G");
    assertEquals(ExitCodes.OK, plan.exitCode(), plan.toString());
    assertTrue(plan.out().contains("run it with SIEVECRAWL_OPTS=-Xmx" + megabytes + "m"), plan.out());
  }

  @Test
  void aFilterThatFitsSaysSo() {
    BloomSizing tenMillion = BloomSizing.of(10_000_000, 0.001);
    assertEquals(String.format(java.util.Locale.ROOT, "heap: the crawl needs about %,d MiB (the filter, 96 MiB besides,"
        + " a quarter more for the collector), within the default heap here (6,144 MiB)",
        FilterFit.heapMegabytes(tenMillion)), FilterFit.heapLine(tenMillion, 6L << 30));
  }
}

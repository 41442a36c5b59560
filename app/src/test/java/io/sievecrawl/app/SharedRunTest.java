package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sievecrawl.crawler.home.SharedHome;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SharedRunTest {
  private static final Map<String, Long> COUNTERS = Map.of("pages", 20_000L, "responses", 19_990L, "bytes", 2_048L);
  private static final Map<String, Long> FRONTIER = Map.of("admitted", 20_500L, "dropped", 1_234_567L, "open", 0L);

  @Test
  void theAllAgentsLineSaysEveryAgentHasEndedWhenItsCountsAreWhole() {
    assertEquals("  all agents:      20,000 pages, 19,990 with a response, 2.05KB read; 20,500 URLs admitted,"
        + " 1,234,567 duplicates dropped, 0 still open; every agent has ended",
        SharedRun.allAgentsLine(new SharedHome.AllAgents(COUNTERS, FRONTIER, 0)));
  }

  @Test
  void theAllAgentsLineSaysHowManyAgentsAreMissingFromAPartialView() {
    assertEquals("  all agents so far: 20,000 pages, 19,990 with a response, 2.05KB read; 20,500 URLs admitted,"
        + " 1,234,567 duplicates dropped, 0 still open; 1 other agent still running, whose last counts are not in",
        SharedRun.allAgentsLine(new SharedHome.AllAgents(COUNTERS, FRONTIER, 1)));
    assertEquals("  all agents so far: 0 pages, 0 with a response, 0B read; 0 URLs admitted, 0 duplicates dropped,"
        + " 0 still open; 3 other agents still running, whose last counts are not in",
        SharedRun.allAgentsLine(new SharedHome.AllAgents(Map.of(), Map.of(), 3)));
  }
}

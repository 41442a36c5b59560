package io.sievecrawl.crawler.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SkipReasonTest {
  /** The wire names are part of the skip log, the results' links and the summary: written out here, not derived. */
  @Test
  void eachReasonKeepsTheNameTheOutputsUse() {
    assertEquals(List.of("out-of-scope-host", "out-of-scope-private", "out-of-scope-pattern", "out-of-scope-depth",
        "out-of-scope-trap", "too-long", "seen", "robots", "robots-unavailable", "origin-unreachable", "host-budget",
        "fresh", "redirect-to-seen-url", "links-over-page-cap", "requisites-over-page-cap", "invalid-url"),
        Arrays.stream(SkipReason.values()).map(SkipReason::wireName).toList());
  }

  @Test
  void aRequisiteRefusedIsCountedApartFromLinks() {
    CrawlStats stats = new CrawlStats();
    stats.notAdmitted(SkipReason.OUT_OF_SCOPE_HOST);
    stats.requisiteNotAdmitted(SkipReason.OUT_OF_SCOPE_HOST);
    stats.requisiteNotAdmitted(SkipReason.OUT_OF_SCOPE_HOST);
    stats.notAdmitted(SkipReason.LINKS_OVER_PAGE_CAP, 5);
    stats.skip(SkipReason.FRESH);
    assertEquals("{links-over-page-cap=5, out-of-scope-host=1, requisite-out-of-scope-host=2}",
        stats.notAdmitted().toString());
    assertEquals("{fresh=1}", stats.skipped().toString());
  }
}

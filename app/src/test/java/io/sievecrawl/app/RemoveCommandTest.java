package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RemoveCommandTest {
  @Test
  void anAgentCountsAsWorkingForThreeOfTheCrawlsLeaseTimesAndAtLeastThirtySeconds() {
    assertEquals(Duration.ofMinutes(6), RemoveCommand.quietFor("frontier.lease-ttl = 2m\n"));
    assertEquals(Duration.ofSeconds(30), RemoveCommand.quietFor("frontier.lease-ttl = 5s\n"));
    assertEquals(Duration.ofSeconds(30), RemoveCommand.quietFor(""), "the default lease time, 10 s");
    assertEquals(Duration.ofMinutes(30), RemoveCommand.quietFor("a.key-of-another-build = 1\n"),
        "settings this build cannot read: the longest lease time allowed");
  }
}

package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sievecrawl.sieve.testing.FakeClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class FailureLogTest {
  @Test
  void aFailureEverySecondIsSaidOnceAMinuteAndItsEndOnce() {
    Logger logger = (Logger) LoggerFactory.getLogger("FailureLogTest");
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    logger.setAdditive(false); // the errors are provoked: asserted on below, not printed in the build log
    FakeClock clock = new FakeClock();
    FailureLog failures = new FailureLog(logger, "cannot save the crawl state in job", clock);

    for (int second = 0; second < 150; second++) { // two and a half minutes of a full disk
      failures.failed("No space left on device");
      clock.advance(Duration.ofSeconds(1));
    }
    failures.succeeded();
    failures.succeeded();
    failures.failed("No space left on device");

    assertEquals(List.of(
        "ERROR cannot save the crawl state in job: No space left on device",
        "ERROR cannot save the crawl state in job: No space left on device (61 failures in a row; said once a minute"
            + " while it lasts)",
        "ERROR cannot save the crawl state in job: No space left on device (121 failures in a row; said once a minute"
            + " while it lasts)",
        "WARN cannot save the crawl state in job: recovered after 150 failures",
        "ERROR cannot save the crawl state in job: No space left on device"),
        lines.list.stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList());
  }
}

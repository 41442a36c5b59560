package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class CapacityWarningTest {
  private static final int N = 10_000;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(CapacityMonitor.class);

  @BeforeEach
  void captureWarnings() {
    appender.start();
    logger.addAppender(appender);
  }

  @AfterEach
  void release() {
    logger.detachAppender(appender);
  }

  @Test
  void warnsOnceWhenTheEstimateFirstExceedsNThenAtTwoNAndFourNNeverPerPush() {
    Sieve<String> sieve = Sieve.over(BloomFilter.create(N, 0.01), url -> url, url -> "", "filter.n");
    UrlCorpus corpus = new UrlCorpus(21);
    List<Long> warnedAtEstimate = new ArrayList<>();
    long[] levels = {N, 2L * N, 4L * N, 8L * N};
    int crossed = 0;
    for (int i = 0; i < 9 * N; i++) {
      sieve.offer(corpus.url(i));
      double estimate = sieve.filter().estimateElements(sieve.filter().bitCount());
      while (crossed < levels.length && estimate > levels[crossed]) {
        crossed++;
        warnedAtEstimate.add((long) i + 1);
      }
      assertEquals(crossed, appender.list.size(), "warnings after push " + (i + 1));
    }
    assertEquals(4, crossed);
    // The estimate tracks the true count, so the warnings fall close to n, 2n, 4n and 8n distinct URLs.
    for (int j = 0; j < 4; j++) {
      double ratio = (double) warnedAtEstimate.get(j) / levels[j];
      assertTrue(Math.abs(ratio - 1) < 0.05, "warning " + j + " at " + warnedAtEstimate.get(j) + " pushes");
    }

    ILoggingEvent first = appender.list.get(0);
    assertEquals(Level.WARN, first.getLevel());
    String message = first.getFormattedMessage();
    assertTrue(message.startsWith("URL filter over capacity: about 10,0"), message);
    assertTrue(message.contains("more than 10,000 (the filter's capacity n = 10,000)"), message);
    assertTrue(message.contains("under the target 0.0100, and passes it as more URLs come"), "at n: " + message);
    assertTrue(message.contains("Raise filter.n to 21,000 or more for the next crawl."), message);
    assertTrue(appender.list.get(1).getFormattedMessage().contains("more than 20,000 (2n)"));
    assertTrue(appender.list.get(2).getFormattedMessage().contains("more than 40,000 (4n)"));
    assertTrue(appender.list.get(2).getFormattedMessage().contains(" now, over the target 0.0100 and climbing with every new"
        + " URL; new URLs"), appender.list.get(2).getFormattedMessage());
    assertEquals(4, sieve.stats().capacityWarnings());
  }

  /**
   * A filter whose parts grow (a spread crawl's) warns of the crawl against n, once a level, saying that what grows is
   * memory, not lost URLs; a part that grows is told at INFO, naming it.
   */
  @Test
  void aFilterWhoseePartsGrowWarnsOfTheCrawlAgainstNOnceALevelAndTellsEachGrowth() {
    double[] seen = {0};
    List<Long> levelsTold = new ArrayList<>();
    CapacityMonitor monitor = CapacityMonitor.ofGrowingParts(N, 0.01, () -> seen[0], level -> levelsTold.add(level),
        "filter.n", false);
    for (int urls = 0; urls <= 5 * N; urls += 100) {
      seen[0] = urls;
      monitor.check();
    }
    assertEquals(List.of((long) N, 2L * N, 4L * N), levelsTold);
    assertEquals(3, appender.list.size());
    String message = appender.list.get(0).getFormattedMessage();
    assertEquals(Level.WARN, appender.list.get(0).getLevel());
    assertTrue(message.startsWith("URL filter over capacity: about 10,100 distinct URLs seen, more than 10,000 (the"
        + " filter's capacity n = 10,000); its parts grow a layer at a time where they fill, so new URLs are still"
        + " taken for seen less often than the target p = 0.0100, but the filter takes more Redis memory than n"
        + " planned for. Raise filter.n to 21,000 or more for the next crawl."), message);
    assertTrue(appender.list.get(2).getFormattedMessage().contains("more than 40,000 (4n)"));

    appender.list.clear();
    Level level = logger.getLevel();
    logger.setLevel(Level.INFO); // the tests' root logger is at WARN
    try {
      monitor.partGrew(17, 64, 3, 300, BloomSizing.of(400, 0.0025));
    } finally {
      logger.setLevel(level);
    }
    assertEquals(1, appender.list.size());
    assertEquals(Level.INFO, appender.list.get(0).getLevel());
    assertEquals("URL filter: the part of origin shard 17 of 64 holds about 300 URLs, its capacity, and grows a layer"
        + " for 400 more (layer 2, at false-positive rate 0.00250, 1 KB of Redis memory as it fills): the URLs of a"
        + " shard's origins all go to its part, so a crawl of a few busy sites fills theirs first. No more URLs are"
        + " taken for seen for it: each new layer's rate is half the one before, so the part stays under the target"
        + " p = 0.0100.", appender.list.get(0).getFormattedMessage());
  }

  @Test
  void theSuggestedCapacityIsTwiceTheUrlsSeenInTwoSignificantDigits() {
    assertEquals(21_000, CapacityMonitor.suggestedCapacity(10_001));
    assertEquals(2_000_000, CapacityMonitor.suggestedCapacity(1_000_000));
    assertEquals(3_100, CapacityMonitor.suggestedCapacity(1_501));
    assertEquals(100, CapacityMonitor.suggestedCapacity(3), "at least 100");
  }

  /**
   * A filter with every bit set estimates infinitely many URLs: the warning still names finite figures. Confirmed or
   * not, a filter that cannot grow where it is (in memory, or shared) asks for a larger n for the next crawl.
   */
  @Test
  void aFullFilterWarnsWithTheLeastItHasSeenNotAnOverflow() {
    BloomSizing sizing = BloomSizing.of(N, 0.01);
    new CapacityMonitor(sizing, sizing::bits, level -> true, "filter.n", true).check();
    new CapacityMonitor(sizing, sizing::bits, level -> true, "filter.n", false).check();
    long least = (long) Math.ceil(sizing.estimateElements(sizing.bits() - 1));
    assertTrue(least > 10 * N, "all bits but one hold many times n: " + least);
    String suggested = String.format(java.util.Locale.ROOT, "%,d", CapacityMonitor.suggestedCapacity(least));
    assertEquals(2, appender.list.size());
    for (ILoggingEvent warning : appender.list) {
      String message = warning.getFormattedMessage();
      assertTrue(message.contains("about " + String.format(java.util.Locale.ROOT, "%,d", least) + " distinct URLs"),
          message);
      assertTrue(message.contains("false-positive rate is 1.00 now"), message);
      assertTrue(message.contains("Raise filter.n to " + suggested + " or more for the next crawl."), message);
    }
  }

  @Test
  void aFilterWithinCapacityNeverWarns() {
    Sieve<String> sieve = Sieve.forUrls(N, 0.01);
    UrlCorpus corpus = new UrlCorpus(22);
    for (int i = 0; i < N * 9 / 10; i++) {
      sieve.offer(corpus.url(i));
      sieve.offer(corpus.url(i)); // duplicates do not count
    }
    assertEquals(List.of(), appender.list);
  }
}

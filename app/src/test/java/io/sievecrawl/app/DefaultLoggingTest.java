package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.junit.jupiter.api.Test;

class DefaultLoggingTest {
  /**
   * A command may reach Redis before it sets up its own logging (join reads the shared crawl's settings first): a
   * library's noise then must not reach the console either, as it would not after.
   */
  @Test
  void librariesAreAsQuietBeforeACommandSetsUpItsLoggingAsAfter() {
    LoggerContext context = new LoggerContext();
    new DefaultLogging().configure(context);

    assertFalse(context.getLogger("io.lettuce.core.RedisChannelHandler").isWarnEnabled(),
        "Lettuce's 'Connection is already closed'");
    assertFalse(context.getLogger("io.lettuce.core.cluster.topology.ClusterTopologyRefresh").isWarnEnabled());
    assertEquals(Level.WARN, context.getLogger("okhttp3.OkHttpClient").getEffectiveLevel());
    assertTrue(context.getLogger("io.sievecrawl.app.CrawlRun").isWarnEnabled(), "the crawl's own warnings");
    assertFalse(context.getLogger("io.sievecrawl.app.CrawlRun").isInfoEnabled());
  }
}

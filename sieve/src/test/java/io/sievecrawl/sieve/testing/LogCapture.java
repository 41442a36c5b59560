package io.sievecrawl.sieve.testing;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Keeps what a logger (and those under it) logs during a test instead of printing it, for a test that provokes an
 * error on purpose: the test asserts on the lines, and the build log shows only real failures. Tests run one at a
 * time, so capturing a whole package's loggers takes no other test's lines.
 */
public final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final boolean additive;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private LogCapture(String name) {
    logger = (Logger) LoggerFactory.getLogger(name);
    additive = logger.isAdditive();
    appender.setContext(logger.getLoggerContext());
    appender.start();
    logger.addAppender(appender);
    logger.setAdditive(false); // nothing reaches the console appender of the root logger
  }

  /** Captures the logger {@code name} and those under it ({@code io.sievecrawl} for every logger of the project). */
  public static LogCapture of(String name) {
    return new LogCapture(name);
  }

  /** Each line captured so far: its level, its message, and the first line of its exception if it has one. */
  public List<String> lines() {
    return appender.list.stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()
        + (e.getThrowableProxy() == null ? "" : " " + firstLine(ThrowableProxyUtil.asString(e.getThrowableProxy()))))
        .toList();
  }

  private static String firstLine(String trace) {
    int newline = trace.indexOf('\n');
    return newline < 0 ? trace : trace.substring(0, newline).strip();
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    logger.setAdditive(additive);
  }
}

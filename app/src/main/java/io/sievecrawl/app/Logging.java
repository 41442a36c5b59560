package io.sievecrawl.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.OutputStreamAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * Sets up logging for a command: the console (standard error) shows warnings and errors, or more with
 * {@code -v}, or only errors with {@code -q}; the log file gets everything from INFO up, with timestamps.
 */
final class Logging {
  /** How much the console shows. */
  enum Verbosity { QUIET, NORMAL, VERBOSE }

  /** Marks a line meant for the log file only, even with {@code -v}: the settings a run starts with. */
  static final org.slf4j.Marker FILE_ONLY = org.slf4j.MarkerFactory.getMarker("FILE_ONLY");

  private static final String CONSOLE_PATTERN = "%level: %msg%n";
  private static final String FILE_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{0} - %msg%n";

  private Logging() {}

  /**
   * Replaces the logging set-up: console to {@code status}'s log stream, file to {@code logFile} (appended) when not
   * {@code null}.
   *
   * @throws UserError with {@link ExitCodes#OUTPUT} if the log file cannot be opened
   */
  static void configure(StatusLine status, Path logFile, Verbosity verbosity) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    context.getStatusManager().clear(); // an earlier command's failed log file is not this one's
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(verbosity == Verbosity.VERBOSE ? Level.DEBUG : Level.INFO);
    quietLibraries(context);

    OutputStreamAppender<ILoggingEvent> console = new OutputStreamAppender<>();
    console.setContext(context);
    console.setName("console");
    console.setEncoder(encoder(context, verbosity == Verbosity.VERBOSE ? CONSOLE_PATTERN : CONSOLE_PATTERN + "%nopex"));
    console.setOutputStream(status.logStream());
    console.setImmediateFlush(true);
    console.addFilter(threshold(context, switch (verbosity) {
      case QUIET -> Level.ERROR;
      case NORMAL -> Level.WARN;
      case VERBOSE -> Level.DEBUG;
    }));
    console.addFilter(fileOnlyKeptOut(context));
    console.start();
    root.addAppender(console);

    if (logFile != null) {
      OutputCheck.file(logFile); // its folder must exist, as for every output
      if (Files.isDirectory(logFile) || (Files.exists(logFile) && !Files.isWritable(logFile))) {
        throw new UserError(ExitCodes.OUTPUT, "cannot write the log file " + logFile);
      }
      FileAppender<ILoggingEvent> file = new FileAppender<>();
      file.setContext(context);
      file.setName("file");
      file.setFile(logFile.toString());
      file.setAppend(true);
      file.setEncoder(encoder(context, FILE_PATTERN));
      file.addFilter(threshold(context, Level.INFO));
      file.start();
      if (!file.isStarted()) {
        throw new UserError(ExitCodes.OUTPUT, "cannot write the log file " + logFile);
      }
      root.addAppender(file);
    }
  }

  /**
   * Libraries' own lines: WARN and up, whatever the verbosity ({@code -v} is for the crawl's own lines, not libraries'
   * internals), and less where a library warns of what the crawl reports itself. Set by {@link DefaultLogging} too,
   * since a command may connect (to Redis, say) before it sets up its logging.
   */
  static void quietLibraries(LoggerContext context) {
    for (String noisy : new String[] {"okhttp3", "org.eclipse.jetty", "crawlercommons", "org.jsoup", "io.lettuce",
        "io.netty", "reactor"}) {
      context.getLogger(noisy).setLevel(Level.WARN);
    }
    // Lettuce warns of every node of a Redis Cluster it cannot reach at every topology refresh, many times during a
    // failover; the crawl's own one WARN and one INFO per outage say what matters
    context.getLogger("io.lettuce.core.cluster.topology").setLevel(Level.ERROR);
    // and of a connection closed twice (its client's shutdown closes it again), which is no news to anyone
    context.getLogger("io.lettuce.core.RedisChannelHandler").setLevel(Level.ERROR);
  }

  /** Flushes and closes the appenders (at the end of a command). */
  static void shutdown() {
    ((LoggerContext) LoggerFactory.getILoggerFactory()).stop();
  }

  /**
   * Ends logging for a command that returns {@code code}: a log file that could not be written in full turns a
   * success into {@link ExitCodes#OUTPUT}, with why.
   */
  static int finish(int code) {
    String problem = fileProblem();
    shutdown();
    if (problem != null && code == ExitCodes.OK) {
      throw new UserError(ExitCodes.OUTPUT, problem);
    }
    return code;
  }

  /**
   * Why the log file could not be written in full (a full disk, a file removed from under it), or {@code null}:
   * Logback stops an appender after a write fails and only records it among its statuses.
   */
  static String fileProblem() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    for (ch.qos.logback.core.status.Status s : context.getStatusManager().getCopyOfStatusList()) {
      String file = s.getOrigin() instanceof FileAppender<?> appender ? appender.getFile()
          : s.getOrigin() instanceof ch.qos.logback.core.recovery.ResilientFileOutputStream stream
              ? stream.getFile().getPath() : null;
      if (s.getLevel() == ch.qos.logback.core.status.Status.ERROR && file != null) {
        Throwable cause = s.getThrowable();
        return "cannot write the log file " + file + ": " + (cause != null && cause.getMessage() != null
            ? cause.getMessage() : s.getMessage());
      }
    }
    return null;
  }

  private static PatternLayoutEncoder encoder(LoggerContext context, String pattern) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(pattern);
    encoder.start();
    return encoder;
  }

  /** Keeps lines marked {@link #FILE_ONLY} off the console. */
  private static ch.qos.logback.core.filter.Filter<ILoggingEvent> fileOnlyKeptOut(LoggerContext context) {
    ch.qos.logback.core.filter.Filter<ILoggingEvent> filter = new ch.qos.logback.core.filter.Filter<>() {
      @Override
      public ch.qos.logback.core.spi.FilterReply decide(ILoggingEvent event) {
        java.util.List<org.slf4j.Marker> markers = event.getMarkerList();
        return markers != null && markers.contains(FILE_ONLY) ? ch.qos.logback.core.spi.FilterReply.DENY
            : ch.qos.logback.core.spi.FilterReply.NEUTRAL;
      }
    };
    filter.setContext(context);
    filter.start();
    return filter;
  }

  private static ThresholdFilter threshold(LoggerContext context, Level level) {
    ThresholdFilter filter = new ThresholdFilter();
    filter.setContext(context);
    filter.setLevel(level.toString());
    filter.start();
    return filter;
  }
}

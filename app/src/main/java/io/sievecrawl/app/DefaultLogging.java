package io.sievecrawl.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;

/**
 * Logback's set-up before a command sets up its own ({@link Logging}): warnings and errors to standard error, one
 * line each. Found by Logback through {@code META-INF/services}; built in code rather than read from a
 * {@code logback.xml}, whose XML parser cost every run about 0.05 s of CPU at start-up.
 */
public final class DefaultLogging extends ContextAwareBase implements Configurator {
  @Override
  public ExecutionStatus configure(LoggerContext context) {
    context.getStatusManager().add(new NopStatusListener()); // Logback's own messages stay out of the way
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%level: %msg%n%nopex");
    encoder.start();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("console");
    console.setTarget("System.err");
    console.setEncoder(encoder);
    console.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(console);
    Logging.quietLibraries(context);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}

package io.sievecrawl.sieve.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when any background thread died of an uncaught exception while it ran: a dying thread must not go
 * unnoticed just because the test's own thread passed. Registered for every test of the modules that list it in their
 * {@code META-INF/services} (and enable {@code junit-platform.properties} autodetection): crawler-core and app.
 */
public final class UncaughtExceptionsExtension implements BeforeEachCallback, AfterEachCallback {
  private static final Queue<String> FAILURES = new ConcurrentLinkedQueue<>();
  private Thread.UncaughtExceptionHandler previous;

  @Override
  public void beforeEach(ExtensionContext context) {
    FAILURES.clear();
    previous = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((thread, e) -> FAILURES.add(thread.getName() + ": " + e));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    Thread.setDefaultUncaughtExceptionHandler(previous);
    List<String> died = new ArrayList<>(FAILURES);
    FAILURES.clear();
    if (!died.isEmpty()) {
      throw new AssertionError("background threads died during the test: " + died);
    }
  }
}

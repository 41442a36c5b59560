package io.sievecrawl.app;

import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP (a closed terminal): the first asks the crawl to stop gracefully; a second
 * quits at once with {@link ExitCodes#INTERRUPTED}, but never in the middle of a results line.
 *
 * <p>Uses {@code sun.misc.Signal}, the JDK's only way to handle a signal without exiting; javac warns that it is
 * internal, but the {@code jdk.unsupported} module exports it for exactly this use.
 */
final class StopSignals {
  private volatile boolean received;

  /**
   * Installs the handlers; {@code onFirst} runs on the first signal, given how to send a second one
   * ({@link #again}), {@code onSecond} (which should end the process) on any later one, each on a signal-handling
   * thread.
   */
  static StopSignals install(Consumer<String> onFirst, Runnable onSecond) {
    StopSignals signals = new StopSignals();
    for (String name : new String[] {"INT", "TERM", "HUP"}) {
      try {
        Signal.handle(new Signal(name), s -> {
          if (signals.received) {
            onSecond.run();
            Runtime.getRuntime().halt(ExitCodes.INTERRUPTED);
          }
          signals.received = true;
          onFirst.accept(again(s.getName()));
        });
      } catch (IllegalArgumentException e) {
        // The signal is not available here (e.g. already claimed by the JVM's -Xrs); keep the default.
      }
    }
    return signals;
  }

  /** How to quit at once after the signal {@code name}: Ctrl-C again, or the same signal again. */
  static String again(String name) {
    return name.equals("INT") ? "press Ctrl-C again to quit at once" : "a second SIG" + name + " quits at once";
  }

  /** Whether a stop signal arrived. */
  boolean received() {
    return received;
  }
}

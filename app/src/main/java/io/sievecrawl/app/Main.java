package io.sievecrawl.app;

import java.io.InputStream;
import java.io.PrintStream;

/** The {@code sievecrawl} program. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(run(System.in, System.out, System.err, args));
  }

  /** Runs one command line with the given standard streams and returns its exit code; never calls System.exit. */
  public static int run(InputStream in, PrintStream out, PrintStream err, String... args) {
    try {
      return Cli.run(new Terminal(in, out, err, StatusLine.stderrIsTerminal()), Clocks.system(), args);
    } catch (Error e) { // picocli hands only Exceptions to the handler: an Error still gets one line, no trace
      err.println("sievecrawl: internal error: " + e);
      if (java.util.Arrays.asList(args).contains("--stacktrace")) {
        e.printStackTrace(err);
      } else {
        err.println("Run again with --stacktrace for details.");
      }
      return ExitCodes.INTERNAL;
    }
  }
}

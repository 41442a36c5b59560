package io.sievecrawl.app;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where the log goes and how much the console shows. */
final class LogOptions {
  /** The log file when none is given: in the working directory, appended to. */
  static final String DEFAULT_LOG_FILE = "sievecrawl.log";

  @Option(names = "--log-file", paramLabel = "FILE", defaultValue = DEFAULT_LOG_FILE,
      description = "Log file, INFO and above with timestamps, appended to (default: ${DEFAULT-VALUE}).")
  Path logFile;

  @Option(names = {"-v", "--verbose"}, description = "Show INFO and DEBUG messages on the console, and stack traces.")
  boolean verbose;

  @Option(names = {"-q", "--quiet"}, description = "Show only errors on the console; no progress line.")
  boolean quiet;

  @Option(names = "--stacktrace", description = "Print the stack trace of an internal error.")
  boolean stacktrace;

  /** Fails with one line when the results file ({@code -} for standard output) is the log file too. */
  void checkApartFrom(String results, String resultsFlag) {
    if (results.equals("-")) {
      return;
    }
    Path a = Path.of(results).toAbsolutePath().normalize();
    Path b = logFile.toAbsolutePath().normalize();
    if (a.equals(b)) {
      throw new UserError(ExitCodes.USAGE, resultsFlag + " and --log-file both name " + b + ": results and log lines"
          + " would interleave in it; give the log another file");
    }
  }

  Logging.Verbosity verbosity() {
    return quiet ? Logging.Verbosity.QUIET : verbose ? Logging.Verbosity.VERBOSE : Logging.Verbosity.NORMAL;
  }
}

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

  Logging.Verbosity verbosity() {
    return quiet ? Logging.Verbosity.QUIET : verbose ? Logging.Verbosity.VERBOSE : Logging.Verbosity.NORMAL;
  }
}

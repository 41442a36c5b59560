package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;

/**
 * Where a run writes and says what it does: its settings, results file, reports, console and clocks.
 *
 * @param verbosity how much the console shows
 */
record RunOutput(CrawlSettings settings, ResultsFile results, ReportOptions reports, StatusLine status,
    Logging.Verbosity verbosity, Clocks clocks) {

  /** A line for the log and the console (see {@link CrawlRun#print}). */
  void print(String line) {
    CrawlRun.print(line, status, verbosity);
  }
}

package io.sievecrawl.app;

import io.sievecrawl.crawler.home.CrawlHome;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.warc.WarcArchive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What the run protocol ({@link CrawlRun}) does its own way for one kind of home: the words it uses for the crawl, the
 * checks before the run, the summary after it and the exit code. The protocol itself is the same for every home.
 */
interface HomeRun {
  /** The home the run works in; its owner closes it. */
  CrawlHome home();

  /** The crawl's name in the WARC files' warcinfo records. */
  String warcName();

  /** The WARC directories a package of the crawl takes, {@code warc}'s among them (recorded where the home can). */
  List<Path> warcDirs(WarcArchive warc);

  /**
   * Whether each page's payload digest is computed: for a WARC revisit ({@code archived}) or a recrawl's
   * comparison of visits kept.
   */
  boolean payloadDigests(boolean archived);

  /** Checks made before the run starts; a {@link UserError} refuses it. Default: none. */
  default void check() {}

  /**
   * Why the run could not start (the home's files or connection: an {@link IOException} or a
   * {@link io.sievecrawl.sieve.FrontierFailure}), as the error to show.
   */
  UserError cannotStart(Exception e);

  /** Said once the run has started. Default: nothing. */
  default void started() {}

  /** The warning when the first stop signal arrives ({@code again}: what a second one does); may act on it too. */
  String stopping(String again);

  /** The line shown when a second stop signal halts the process at once. */
  String halted();

  /** The error when the seeds could not be read while the crawl ran. */
  UserError seedsUnreadable(UncheckedIOException e);

  /**
   * Reports the run's end (summary, archives) and returns its exit code, or throws the {@link UserError} that says
   * how it failed.
   *
   * @param closing the first failure closing the results, the home or the WARC files, or null
   * @param warc the run's archive, or null without one
   * @param warcDirs the crawl's WARC directories ({@link #warcDirs}), empty without an archive
   * @param warcClosed whether the WARC files were closed without failure
   */
  int end(CrawlSummary summary, IOException closing, WarcArchive warc, List<Path> warcDirs, boolean warcClosed,
      RunOutput out);
}

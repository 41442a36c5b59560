package io.sievecrawl.app;

import io.sievecrawl.crawler.job.CrawlFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files a command will write, named by their flags, checked before any is opened or emptied: none may be a file
 * the crawl itself writes or reads in its crawl directory (an output there would destroy the crawl, or the crawl the
 * output), and no two may be one file. Paths are compared as the system reaches them: relative ones from the
 * working directory, through symbolic links, and existing files by identity (hard links).
 */
final class OutputPaths {
  private record Output(String flag, Path path, boolean folder) {}

  private final Path crawlDir; // null: the command has none (a shared crawl)
  private final List<Output> outputs = new ArrayList<>();

  private OutputPaths(Path crawlDir) {
    this.crawlDir = crawlDir;
  }

  /** The outputs of a command working the crawl in {@code crawlDir} ({@code null} for none). */
  static OutputPaths of(Path crawlDir) {
    return new OutputPaths(crawlDir);
  }

  /** A file {@code flag} names; {@code null} or {@code -} (standard output) is none. */
  OutputPaths file(String flag, String path) {
    return path == null || path.equals("-") ? this : file(flag, Path.of(path));
  }

  /** A file {@code flag} names; {@code null} is none. */
  OutputPaths file(String flag, Path path) {
    if (path != null) {
      outputs.add(new Output(flag, path, false));
    }
    return this;
  }

  /** A folder {@code flag} names ({@code --warc}), empty for none: it may lie inside the crawl directory. */
  OutputPaths folder(String flag, String path) {
    if (path != null && !path.isEmpty()) {
      outputs.add(new Output(flag, Path.of(path), true));
    }
    return this;
  }

  /**
   * Fails with one line when an output is one of the crawl directory's files (or the directory itself, for a file).
   *
   * @throws UserError with {@link ExitCodes#USAGE}
   */
  void checkNotCrawlFiles() {
    if (crawlDir == null) {
      return;
    }
    for (Output output : outputs) {
      String what = CrawlFiles.describe(crawlDir, output.path());
      if (what == null || output.folder() && what.equals(CrawlFiles.ITSELF)) {
        continue; // WARC files may go to the crawl directory, or a folder in it
      }
      if (what.equals(CrawlFiles.ITSELF)) {
        throw new UserError(ExitCodes.USAGE, output.flag() + " " + output.path() + " is the crawl directory " + crawlDir
            + ": give " + output.flag() + " a file");
      }
      throw new UserError(ExitCodes.USAGE, output.flag() + " " + output.path() + " is " + what + " of the crawl in "
          + crawlDir + ", which the crawl writes and reads itself: give " + output.flag() + " another "
          + (output.folder() ? "folder" : "file"));
    }
  }

  /**
   * Fails with one line when two outputs name one file.
   *
   * @throws UserError with {@link ExitCodes#USAGE}
   */
  void checkDistinct() {
    for (int i = 0; i < outputs.size(); i++) {
      for (int j = i + 1; j < outputs.size(); j++) {
        Output a = outputs.get(i);
        Output b = outputs.get(j);
        if (!a.folder() && !b.folder() && sameFile(a.path(), b.path())) {
          throw new UserError(ExitCodes.USAGE, a.flag() + " and " + b.flag() + " both name " + b.path() + ": "
              + (b.flag().equals("--log-file") ? "results and log lines would interleave in it; give the log another"
                  + " file" : "each needs a file of its own"));
        }
      }
    }
  }

  private static boolean sameFile(Path a, Path b) {
    if (CrawlFiles.resolved(a).equals(CrawlFiles.resolved(b))) {
      return true;
    }
    try {
      return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b); // hard links
    } catch (IOException e) {
      return false;
    }
  }
}

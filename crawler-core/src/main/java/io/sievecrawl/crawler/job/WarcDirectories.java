package io.sievecrawl.crawler.job;

import io.sievecrawl.sieve.Durable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The WARC directories a crawl's runs have written to ({@code warc-dirs.txt} in the crawl directory, one absolute path
 * a line, in the order first used): a recrawl or a resume given another {@code --warc} writes elsewhere, and a
 * revisit record there refers to a capture in an earlier directory, so a package of the crawl needs them all.
 * Replaced atomically when a directory is added.
 */
public final class WarcDirectories {
  private static final String FILE = CrawlFiles.WARC_DIRS;

  private WarcDirectories() {}

  /** The WARC directories the crawl in {@code crawlDir} has written to, first used first; empty if none is known. */
  public static List<Path> of(Path crawlDir) throws IOException {
    Path file = crawlDir.resolve(FILE);
    if (!Files.exists(file)) {
      return List.of();
    }
    List<Path> dirs = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        dirs.add(Path.of(line.strip()));
      }
    }
    return dirs;
  }

  /**
   * Records that a run of the crawl in {@code crawlDir} writes to {@code warcDir}; returns every directory of the
   * crawl now, this one included.
   */
  public static List<Path> add(Path crawlDir, Path warcDir) throws IOException {
    List<Path> dirs = new ArrayList<>(of(crawlDir));
    Path absolute = warcDir.toAbsolutePath().normalize();
    if (!dirs.contains(absolute)) {
      dirs.add(absolute);
      StringBuilder text = new StringBuilder();
      for (Path dir : dirs) {
        text.append(dir).append('\n');
      }
      Durable.replace(crawlDir.resolve(FILE), text.toString());
    }
    return dirs;
  }
}

package io.sievecrawl.crawler.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The names of the files a crawl keeps in its crawl directory, in one place: {@link DirectoryHome}, {@link Generation},
 * {@link RobotsFile} and the directory's lock name their files from here, and {@link #describe} tells whether a path
 * the user gives for an output is one of them (an output written there would destroy the crawl, or the crawl the
 * output).
 */
public final class CrawlFiles {
  private static final Logger log = LoggerFactory.getLogger(CrawlFiles.class);
  static final String MANIFEST = "manifest.json";
  static final String SETTINGS = "settings.conf";
  static final String SEEDS = "seeds.txt";
  static final String STATE = "state.json";
  static final String SKETCH = "pages-per-origin.cms";
  static final String COOKIES = "cookies.txt";
  static final String LOCK = "lock";
  static final String ROBOTS = "robots.log";
  /** Generation 0's frontier; generation G's is {@code frontier-G}. */
  static final String FRONTIER = "frontier";
  static final String VISITS = "visits-%d.jsonl";
  static final String CARRIED = "carried-%d.txt";
  static final String WARC_DIRS = "warc-dirs.txt";
  /** What {@link #describe} says of the crawl directory itself. */
  public static final String ITSELF = "the crawl directory itself";
  /** What a file replaced atomically is written as before its rename ({@code Durable.replace}). */
  static final String TEMPORARY = ".tmp";

  private static final Pattern VISITS_NAME = Pattern.compile("visits-\\d+\\.jsonl");
  private static final Pattern CARRIED_NAME = Pattern.compile("carried-\\d+\\.txt");
  private static final Pattern FRONTIER_NAME = Pattern.compile(Pattern.quote(FRONTIER) + "(-\\d+)?");
  private static final int MAX_LINKS = 40; // as the kernel's own limit on a path's symbolic links

  private CrawlFiles() {}

  /**
   * What {@code file} is among the files the crawl in {@code dir} writes or reads ("the manifest", "the frontier",
   * ...), or {@code null} if it is none of them. Either may not exist yet; both are compared as the system would
   * reach them: relative to the working directory, through symbolic links (of the file, of its folders, of
   * {@code dir}), and as hard links of an existing file.
   */
  public static String describe(Path dir, Path file) {
    Path home = resolved(dir);
    Path target = resolved(file);
    if (target.startsWith(home)) {
      Path inside = home.relativize(target);
      return inside.toString().isEmpty() ? ITSELF : describe(inside);
    }
    return hardLinkTo(dir, file);
  }

  /** Whether {@code dir} holds a crawl (a manifest and its settings), as {@code sievecrawl resume} would open it. */
  public static boolean holdsCrawl(Path dir) {
    return Files.isRegularFile(dir.resolve(MANIFEST)) && Files.isRegularFile(dir.resolve(SETTINGS));
  }

  /**
   * Checks that {@code dir} may become a new crawl's directory: it is missing or empty.
   *
   * @throws CrawlJobException if it holds a crawl already (completed or not), other files, or is a file
   */
  static void checkFreeForNewCrawl(Path dir) throws IOException {
    if (Files.exists(dir.resolve(MANIFEST))) {
      if (Manifest.completed(dir)) {
        throw new CrawlJobException(dir + " holds a completed crawl: choose another directory for a new one, or"
            + " remove it");
      }
      throw new CrawlJobException(dir + " holds a crawl already: continue it with 'sievecrawl resume " + dir
          + "', or choose another directory");
    }
    if (Files.isDirectory(dir)) {
      try (Stream<Path> entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new CrawlJobException(dir + " is not empty: a new crawl needs an empty or new directory");
        }
      }
    } else if (Files.exists(dir)) {
      throw new CrawlJobException(dir + " is a file, not a directory");
    }
  }

  /** The settings file of the crawl in {@code dir}. */
  public static Path settingsOf(Path dir) {
    return dir.resolve(SETTINGS);
  }

  /**
   * Deletes the crawl's own files in {@code dir}, and {@code dir} if nothing else is left in it: outputs the user put
   * there (WARC files, results, a log) are the user's. Returns what was left.
   */
  static List<Path> deleteCrawl(Path dir) throws IOException {
    List<Path> kept = new ArrayList<>();
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path entry : entries.toList()) {
        if (describe(Path.of(entry.getFileName().toString())) != null) {
          deleteTree(entry);
        } else {
          kept.add(entry);
        }
      }
    }
    if (kept.isEmpty()) {
      Files.deleteIfExists(dir);
    } else {
      log.info("kept {} after removing the crawl's files: it holds {} that the crawl did not write ({})", dir,
          kept.size() == 1 ? "a file" : kept.size() + " files", kept.get(0).getFileName()
              + (kept.size() > 1 ? ", ..." : ""));
    }
    return kept;
  }

  /** Deletes {@code root} and everything under it, if it exists. */
  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** What the path {@code inside} a crawl directory is to the crawl, or {@code null}. */
  private static String describe(Path inside) {
    String first = inside.getName(0).toString();
    if (FRONTIER_NAME.matcher(first).matches()) {
      return "the frontier"; // everything under it: log segments, filter and run files, checkpoint
    }
    if (inside.getNameCount() > 1) {
      return null;
    }
    String name = first.endsWith(TEMPORARY) ? first.substring(0, first.length() - TEMPORARY.length()) : first;
    String what = switch (name) {
      case MANIFEST -> "the manifest";
      case SETTINGS -> "the settings";
      case SEEDS -> "the seeds";
      case STATE -> "the state";
      case SKETCH -> "the per-origin page counts";
      case COOKIES -> "the cookies";
      case LOCK -> "the lock";
      case WARC_DIRS -> "the list of WARC directories";
      case ROBOTS -> "the robots.txt rules";
      default -> VISITS_NAME.matcher(name).matches() ? "the visits of a generation"
          : CARRIED_NAME.matcher(name).matches() ? "the URLs carried to a recrawl" : null;
    };
    return what == null || name.equals(first) ? what : "the temporary file of " + what;
  }

  /**
   * {@code path} absolute and normal, its symbolic links followed as far as they exist, the rest of it (folders not
   * yet created, the file itself) appended as given.
   */
  public static Path resolved(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    for (int links = 0; links < MAX_LINKS && Files.isSymbolicLink(absolute); links++) {
      try { // a link to a file not yet there: writing it creates its target
        absolute = absolute.resolveSibling(Files.readSymbolicLink(absolute)).toAbsolutePath().normalize();
      } catch (IOException e) {
        break;
      }
    }
    Path existing = absolute;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return absolute;
    }
    try {
      return existing.toRealPath().resolve(existing.relativize(absolute)).normalize();
    } catch (IOException e) {
      return absolute;
    }
  }

  /** What of the crawl's files in {@code dir} {@code file} is a hard link to, or {@code null}. */
  private static String hardLinkTo(Path dir, Path file) {
    if (!Files.isRegularFile(file) || !Files.isDirectory(dir)) {
      return null;
    }
    try (Stream<Path> entries = Files.walk(dir, 2)) { // the frontier's files one level down
      for (Path entry : entries.toList()) {
        String what = entry.equals(dir) ? null : describe(dir.relativize(entry));
        if (what != null && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS) && Files.isSameFile(entry, file)) {
          return what;
        }
      }
    } catch (IOException e) {
      return null; // a folder that cannot be listed holds no file the crawl could write either
    }
    return null;
  }
}

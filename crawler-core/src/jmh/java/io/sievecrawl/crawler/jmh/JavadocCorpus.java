package io.sievecrawl.crawler.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The javadoc of OpenJDK 17 as Debian's {@code openjdk-17-doc} package installs it: about 10,000 real HTML pages
 * (270 MB), from a few KB to 5 MB, dense with relative links. Installed by {@code crawler-core/src/bench/
 * javadoc-corpus.sh}, never committed. {@code -Dcorpus.dir=...} points elsewhere.
 */
final class JavadocCorpus {
  static final String DEFAULT_DIR = "/usr/share/doc/openjdk-17-jre-headless/api";
  /** Every page is extracted as if served from here, so recorded results do not depend on a server's port. */
  static final String SITE = "http://127.0.0.1:8080/";

  /** One page: its path under the corpus directory (with '/'), the URL it is extracted as, and its bytes. */
  /** A page of the corpus; {@code link} is its URL as the crawler holds it. */
  record Page(String path, String url, io.sievecrawl.crawler.url.Url link, byte[] body) {}

  private JavadocCorpus() {}

  static Path dir() {
    Path dir = Path.of(System.getProperty("corpus.dir", DEFAULT_DIR));
    if (!Files.isDirectory(dir)) {
      throw new IllegalStateException("no javadoc corpus at " + dir
          + ": run crawler-core/src/bench/javadoc-corpus.sh (installs Debian's openjdk-17-doc) or set -Dcorpus.dir");
    }
    return dir;
  }

  /** The paths of every {@code .html} file under {@code dir}, relative and with '/', in sorted order. */
  static List<String> htmlPaths(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".html") && Files.isRegularFile(p))
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Page load(Path dir, String path) {
    try {
      return new Page(path, SITE + path,
          new io.sievecrawl.crawler.url.UrlNormalizer(Integer.MAX_VALUE, true).parse(SITE + path),
          Files.readAllBytes(dir.resolve(path)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code count} pages spread evenly over the sorted corpus (the same ones on every run). */
  static List<Page> sample(int count) {
    Path dir = dir();
    List<String> paths = htmlPaths(dir);
    if (paths.size() < count) {
      throw new IllegalStateException("the corpus at " + dir + " has " + paths.size() + " pages, fewer than " + count);
    }
    List<Page> pages = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      pages.add(load(dir, paths.get((int) ((long) i * paths.size() / count))));
    }
    return pages;
  }
}

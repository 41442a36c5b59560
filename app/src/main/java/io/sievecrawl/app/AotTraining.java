package io.sievecrawl.app;

import io.sievecrawl.crawler.bench.SyntheticSite;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The training run of the AOT cache that {@code mvn package} makes beside the jar ({@code app/target/sievecrawl.aot},
 * JEP 483, 514 and 515): run by a JVM started with {@code -XX:AOTCacheOutput}, it crawls a generated site served on
 * 127.0.0.1 the way a user would, through the command line, and the JVM writes at its exit the classes it loaded and
 * linked and the profiles of the methods it ran hot. The launcher hands the cache to every later run on the same JDK
 * and jar, which then start with those classes ready and compile with those profiles from the first page.
 *
 * <p>Usage: {@code java -XX:AOTCacheOutput=CACHE --enable-native-access=ALL-UNNAMED -cp sievecrawl.jar
 * io.sievecrawl.app.AotTraining CACHE}: native access as the launcher grants it to the runs it gives the cache (the
 * JVM takes a cache only with the module options it was made with). On a Java older than 25, which has no AOT
 * cache, it removes a cache left by an earlier build and trains nothing.
 */
final class AotTraining {
  /*
   * What it crawls. Pages of varied markup (SyntheticSite.startVaried: tables, code, character references,
   * scripts, gzip, windows-1252), so that the profiles do not tell the JIT compiler that HTML is only the plain pages of
   * the bench site, and nothing but the loopback interface: no request leaves the machine. First a short crawl that
   * archives (--warc, --text), so that the WARC writer's classes are in the cache too, then a crawl of the whole site
   * as 'crawl' runs by default, long enough for its hot methods to be compiled, whose profiles outweigh the first's;
   * then the same pages over https, with a certificate made for the run (TrainingCertificate), so that the TLS code's
   * classes (handshake, certificate checks, the record layer, AES-GCM) are in the cache and its methods' profiles
   * ready: most sites are https, and without them a crawl of https sites spends its first seconds in that code
   * interpreted or waiting for the compiler.
   */
  static final int PAGES = 2_000;
  static final int HTTPS_PAGES = 1_000;
  private static final int FAN_OUT = 20;
  private static final int FIRST_JAVA_WITH_AOT_CACHE = 25;

  private AotTraining() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: java -XX:AOTCacheOutput=CACHE --enable-native-access=ALL-UNNAMED -cp sievecrawl.jar "
          + AotTraining.class.getName() + " CACHE");
      System.exit(ExitCodes.USAGE);
    }
    Path cache = Path.of(args[0]);
    int java = Runtime.version().feature();
    if (java < FIRST_JAVA_WITH_AOT_CACHE) {
      Files.deleteIfExists(cache); // an earlier build's, of another jar: no use to this one
      System.out.printf("sievecrawl: no AOT cache: Java %d has none (a JDK %d or newer makes one)%n", java,
          FIRST_JAVA_WITH_AOT_CACHE);
      System.exit(ExitCodes.OK);
    }
    long start = System.nanoTime();
    Path dir = Files.createTempDirectory("sievecrawl-aot-training");
    int code;
    try (SyntheticSite site = SyntheticSite.startVaried(PAGES, FAN_OUT)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      code = crawl(dir.resolve("archived"), seeds, "--max-pages", "300", "--warc", dir.resolve("warc").toString(),
          "--text");
      if (code == ExitCodes.OK) {
        site.resetCounts();
        code = crawl(dir.resolve("plain"), seeds);
      }
      if (code == ExitCodes.OK && site.pagesNeverServed() > 0) {
        System.out.printf("sievecrawl: AOT training crawled %,d of the %,d pages%n", PAGES - site.pagesNeverServed(),
            PAGES);
      }
      if (code == ExitCodes.OK) {
        code = crawlOverHttps(dir);
      }
    } finally {
      deleteTree(dir);
    }
    // The cache is written at exit all the same: it holds what the run got to, and a later run can use it.
    System.out.printf("sievecrawl: AOT training crawl of %,d pages (and %,d over https) on 127.0.0.1 took %.1f s%s%n",
        PAGES, HTTPS_PAGES, (System.nanoTime() - start) / 1e9,
        code == ExitCodes.OK ? "" : "; it failed with exit code " + code);
    System.exit(ExitCodes.OK);
  }

  /**
   * Crawls {@value #HTTPS_PAGES} pages of the site served over https, trusting its certificate through fetch.ca-file;
   * if no certificate can be made (a JDK without keytool), says so and trains without.
   */
  private static int crawlOverHttps(Path dir) throws IOException {
    TrainingCertificate certificate;
    try {
      certificate = TrainingCertificate.make(Files.createDirectories(dir.resolve("tls")));
    } catch (IOException e) {
      System.out.printf("sievecrawl: AOT training without https: %s%n", e.getMessage());
      return ExitCodes.OK;
    }
    try (SyntheticSite site = SyntheticSite.startVaried(PAGES, FAN_OUT, certificate.server())) {
      Path seeds = Files.writeString(dir.resolve("https-seeds.txt"), site.rootUrl() + "\n");
      int code = crawl(dir.resolve("https"), seeds, "--max-pages", Integer.toString(HTTPS_PAGES), "--set",
          "fetch.ca-file=" + certificate.caFile());
      if (code == ExitCodes.OK && site.pagesNeverServed() == PAGES) {
        System.out.println("sievecrawl: AOT training fetched no page over https");
      }
      return code;
    }
  }

  /** Runs {@code sievecrawl crawl} in this JVM into {@code dir}; returns its exit code, its errors printed if any. */
  private static int crawl(Path dir, Path seeds, String... more) throws IOException {
    Files.createDirectories(dir);
    String[] common = {"crawl", seeds.toString(), "-q", "--delay", "0ms", "--host-concurrency", "8", "--concurrency",
        "8", "-o", dir.resolve("pages.jsonl").toString(), "--job", dir.resolve("job").toString(), "--log-file",
        dir.resolve("crawl.log").toString()};
    String[] args = Stream.concat(Stream.of(common), Stream.of(more)).toArray(String[]::new);
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int code = Main.run(InputStream.nullInputStream(), new PrintStream(PrintStream.nullOutputStream()),
        new PrintStream(errors, true, StandardCharsets.UTF_8), args);
    if (code != ExitCodes.OK) {
      System.err.print(errors.toString(StandardCharsets.UTF_8));
    }
    return code;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sievecrawl.crawler.bench.SyntheticSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build's launcher, jar and AOT cache together (target/, made by the package phase before the integration
 * tests): a crawl over https opens the cache and loads BoringSSL without a warning. The JVM uses an AOT cache only
 * with the module options it was made with, and the training grants native access by option where the jar's
 * manifest grants it to {@code java -jar}: a launcher that did not pass the same option lost the cache, silently.
 */
@DisabledOnOs(OS.WINDOWS) // a POSIX shell script
class AotCacheIT {
  private static final Path TARGET = Path.of("target");

  @TempDir
  Path dir;

  @Test
  void anHttpsCrawlThroughTheLauncherOpensTheBuildsAotCacheAndPrintsNoWarning() throws Exception {
    assumeTrue(Runtime.version().feature() >= 25, "the AOT cache needs JDK 25");
    Path cache = TARGET.resolve("sievecrawl.aot");
    assumeTrue(Files.exists(cache), "a build without its AOT cache (-Daot.skip)");
    assumeTrue(Files.getLastModifiedTime(cache).compareTo(Files.getLastModifiedTime(TARGET.resolve("sievecrawl.jar")))
        >= 0, "an earlier build's cache, left by a build with -Daot.skip: the JVM would rightly refuse it");
    TrainingCertificate certificate = TrainingCertificate.make(Files.createDirectories(dir.resolve("tls")));
    Path stderr = dir.resolve("stderr.txt");
    try (SyntheticSite site = SyntheticSite.startVaried(20, 4, certificate.server())) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      ProcessBuilder crawl = new ProcessBuilder(TARGET.resolve("sievecrawl").toString(), "crawl", seeds.toString(),
          "-q", "--delay", "0ms", "--max-pages", "5", "--set", "fetch.ca-file=" + certificate.caFile(), "-o",
          dir.resolve("pages.jsonl").toString(), "--log-file", dir.resolve("crawl.log").toString())
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(stderr.toFile());
      crawl.environment().put("SIEVECRAWL_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
      // the launcher turns the JVM's messages about the cache off; its errors (a cache refused) are wanted here
      crawl.environment().put("SIEVECRAWL_OPTS", "-Xlog:aot=error:stderr -Xlog:cds=error:stderr");
      Process process = crawl.start();
      assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the crawl ends");
      String printed = Files.readString(stderr);
      assertEquals(0, process.exitValue(), printed);
      assertEquals(5, Files.readAllLines(dir.resolve("pages.jsonl")).size(), printed);
      assertFalse(printed.contains("[error]"), "the cache opens: " + printed);
      assertFalse(printed.contains("WARNING"), "no restricted-method warning: " + printed);
      if ("Linux".equals(System.getProperty("os.name")) && "amd64".equals(System.getProperty("os.arch"))) {
        assertTrue(Files.readString(dir.resolve("crawl.log")).contains("TLS: BoringSSL"), "Conscrypt's jar has it");
      }
    }
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input that only a fresh JVM can show (an environment variable, a small heap): one line, a documented exit
 * code, no stack trace. The rest of these checks run in-process, in {@code CommandLineErrorsTest}.
 */
class CommandLineErrorsIT {
  @TempDir
  Path dir;

  private Path file(String name, String text) throws IOException {
    Path path = dir.resolve(name);
    Files.writeString(path, text);
    return path;
  }

  @Test
  void aProxyVariableThatHoldsNoHttpProxyIsNamedAndNothingStarts() throws Exception {
    Path seeds = file("seeds.txt", "http://127.0.0.1:9/\n");
    Path results = dir.resolve("results.jsonl");
    Path stderr = dir.resolve("stderr.txt");
    Process child = ChildProcess.start(Main.class, List.of(), Map.of("https_proxy", "socks5://127.0.0.1:1080"),
        stderr, "crawl", seeds.toString(), "-o", results.toString(), "--log-file", dir.resolve("log").toString());
    assertTrue(child.waitFor(1, TimeUnit.MINUTES));
    assertEquals(ExitCodes.CONFIG, child.exitValue());
    assertEquals("sievecrawl: environment variable https_proxy: must be an HTTP proxy URL,"
        + " http://[USER:PASSWORD@]HOST[:PORT] (socks5 proxies are not supported)\n", Files.readString(stderr));
    assertFalse(Files.exists(results));

    Cmd credentials = Cmd.run("crawl", seeds.toString(), "--set", "fetch.proxy=http://me:secret@proxy.example:3128");
    assertEquals(ExitCodes.CONFIG, credentials.exitCode());
    assertTrue(credentials.err().startsWith("sievecrawl: --set: fetch.proxy = http://me:secret@proxy.example:3128:"
        + " must not hold a user or password"), credentials.err());
  }

  /** A small heap with a small filter: the message names both figures, and blames neither wrongly. */
  @Test
  void aHeapTooSmallForTheCrawlSaysWhatTheCrawlNeeds(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path stderr = dir.resolve("stderr.txt");
    Process child = ChildProcess.start(java.util.List.of("-Xmx40m"), stderr, "crawl", "https://example.com/",
        "-n", "2M", "-p", "0.01", "--job", dir.resolve("job").toString());
    assertTrue(child.waitFor(1, java.util.concurrent.TimeUnit.MINUTES));
    String err = java.nio.file.Files.readString(stderr).strip();
    assertEquals(ExitCodes.CONFIG, child.exitValue(), err);
    assertTrue(err.matches("sievecrawl: this JVM's heap \\(4[0-9] MiB\\) is too small for the crawl: the URL filter for"
        + " n = 2M at p = 0.01 takes 2.4 MiB, and the crawl needs about 96 MiB besides; run with"
        + " SIEVECRAWL_OPTS=-Xmx123m"), err);
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs a sievecrawl command in a child process and SIGKILLs it at random moments, each time a few hundred more
 * result lines have come, then continues it with {@code resume DIR}, until it ends by itself.
 */
final class KillLoop {
  private KillLoop() {}

  /**
   * Runs {@code command} plus {@code tuning}, kills it up to {@code kills} times, each after 100 to 100 + {@code spread}
   * more lines of {@code results}, resuming {@code job} with {@code tuning} after each; returns the kills made. Fails
   * unless the last run ends by itself with exit 0.
   */
  static int run(List<String> command, List<String> tuning, Path job, Path results, Path stderr, Random random,
      int kills, int spread) throws IOException, InterruptedException {
    Process child = ChildProcess.start(List.of(), stderr, concat(command, tuning));
    int made = 0;
    while (true) {
      long target = lines(results) + 100 + random.nextInt(spread);
      if (made < kills && waitForLines(child, results, target)) {
        child.toHandle().destroyForcibly(); // SIGKILL; unlike Process.destroy it leaves no time to clean up
        assertTrue(child.waitFor(1, TimeUnit.MINUTES));
        made++;
        child = ChildProcess.start(List.of(), stderr, concat(List.of("resume", job.toString()), tuning));
        continue;
      }
      assertTrue(child.waitFor(3, TimeUnit.MINUTES), "the crawl ends");
      assertEquals(0, child.exitValue(), Files.readString(stderr));
      return made;
    }
  }

  /** Lines in {@code file} now (0 when it does not exist yet). */
  static long lines(Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    long n = 0;
    for (byte b : Files.readAllBytes(file)) {
      n += b == '\n' ? 1 : 0;
    }
    return n;
  }

  static String[] concat(List<String> a, List<String> b) {
    return Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
  }

  /** Waits until {@code file} holds {@code target} lines; {@code false} if the child ended first. */
  private static boolean waitForLines(Process child, Path file, long target) throws IOException, InterruptedException {
    while (lines(file) < target) {
      if (child.waitFor(10, TimeUnit.MILLISECONDS)) {
        return false;
      }
    }
    return true;
  }
}

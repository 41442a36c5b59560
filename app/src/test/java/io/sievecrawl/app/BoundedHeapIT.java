package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.bench.SyntheticSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crawl whose pages each link 1,000 new URLs runs in a child JVM with a 128 MB heap until its frontier holds over a
 * million URLs: the frontier lives on disk, so the heap does not grow with it, and the crawl ends cleanly at its page
 * limit. (The in-memory frontier died at 1.6 million queued URLs with 256 MB.)
 */
class BoundedHeapIT {
  @TempDir
  Path dir;

  @Test
  void aMillionQueuedUrlsFitIn128MegabytesOfHeap() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(20_000_000, 1_000)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
      Path stderr = dir.resolve("stderr.txt");
      Process child = ChildProcess.start(List.of("-Xmx128m", "-XX:+ExitOnOutOfMemoryError"), stderr, "crawl",
          seeds.toString(), "--job", dir.resolve("job").toString(), "-o", dir.resolve("results.jsonl").toString(),
          "--log-file", dir.resolve("sievecrawl.log").toString(), "--max-pages", "1200", "-n", "2M", "-p", "0.01",
          "--concurrency", "8", "--host-concurrency", "8", "--delay", "0ms");
      assertTrue(child.waitFor(5, TimeUnit.MINUTES), "the crawl ends");
      String err = Files.readString(stderr);
      assertFalse(err.contains("OutOfMemoryError"), err);
      assertEquals(0, child.exitValue(), err);
      assertTrue(err.contains("crawl page limit: 1,200 pages"), err);
      Matcher left = Pattern.compile("left in the frontier for 'resume': ([0-9,]+)").matcher(err);
      assertTrue(left.find(), err);
      long queued = Long.parseLong(left.group(1).replace(",", ""));
      System.out.printf("bounded heap: %d URLs left in the frontier after 1200 pages, -Xmx128m%n", queued);
      assertTrue(queued > 1_000_000, "over a million URLs queued: " + queued);
    }
  }

  /**
   * A million seeds are read, checked and queued a batch at a time: a 128 MB heap holds the crawl (held in memory,
   * they took 862 MB), the first fetch does not wait for the last seed to be queued, and a stop ends the queuing.
   */
  @Test
  void aMillionSeedsStreamIntoACrawlIn128MegabytesOfHeap() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(1_000, 2)) {
      Path seeds = dir.resolve("seeds.txt");
      try (var out = Files.newBufferedWriter(seeds)) {
        for (int i = 0; i < 1_000_000; i++) {
          out.write(site.rootUrl() + "seed/" + i + "?from=a-long-enough-seed-file-line\n");
        }
      }
      Path stderr = dir.resolve("stderr.txt");
      Process child = ChildProcess.start(List.of("-Xmx128m", "-XX:+ExitOnOutOfMemoryError"), stderr, "crawl",
          seeds.toString(), "--job", dir.resolve("job").toString(), "-o", dir.resolve("results.jsonl").toString(),
          "--log-file", dir.resolve("sievecrawl.log").toString(), "--max-pages", "100", "-n", "2M", "-p", "0.01",
          "--concurrency", "8", "--host-concurrency", "8", "--delay", "0ms");
      assertTrue(child.waitFor(5, TimeUnit.MINUTES), "the crawl ends");
      String err = Files.readString(stderr);
      assertFalse(err.contains("OutOfMemoryError"), err);
      assertEquals(0, child.exitValue(), err);
      assertTrue(err.contains("crawl page limit: 100 pages"), err);
      Matcher left = Pattern.compile("left in the frontier for 'resume': ([0-9,]+)").matcher(err);
      assertTrue(left.find(), err);
      long queued = Long.parseLong(left.group(1).replace(",", ""));
      assertTrue(queued < 999_900, "queuing stopped with the crawl, before every seed: " + queued + " queued");
      try (var kept = Files.lines(dir.resolve("job").resolve("seeds.txt"))) {
        assertEquals(1_000_000, kept.count(), "every seed kept for resume");
      }
    }
  }
}

package io.sievecrawl.sieve.jmh;

import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.Sieve;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.disk.DiskFrontier;
import io.sievecrawl.sieve.disk.FrontierOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Heap and disk of a frontier holding 10 million queued URLs (n = 10M, p = 1%): the disk frontier's heap should be
 * its filter and buffers, whatever it holds; the in-memory one's grows with every URL.
 *
 * <p>Run: {@code mvn -q -B -pl sieve -Pjmh test-compile exec:exec -Djmh.main=io.sievecrawl.sieve.jmh.FrontierFootprintReport
 * -Djmh.args="disk 10000000"} (or {@code memory}, or {@code confirmed} for a disk frontier with an exact store,
 * optionally followed by the filter's n); heap is measured after a full GC, with the URLs generated one at a time so
 * that nothing but the frontier keeps them. Confirmed, it also reports the store's bytes per URL and the time to
 * refuse URLs already admitted (the look-ups a crawl makes for its links), and how long reopening it at twice the n
 * takes (the filter rebuilt from the store, as {@code resume -n} does).
 */
public final class FrontierFootprintReport {
  private FrontierFootprintReport() {}

  public static void main(String[] args) throws IOException {
    String kind = args.length > 0 ? args[0] : "disk";
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 10_000_000;
    long n = args.length > 2 ? Long.parseLong(args[2]) : 10_000_000;
    Path dir = Files.createTempDirectory("frontier-footprint");
    long heapBefore = usedHeapAfterGc();
    Frontier<String> frontier = kind.equals("memory")
        ? Sieve.over(BloomFilter.create(n, 0.01), url -> url, Urls::origin, "n")
        : DiskFrontier.open(dir, n, 0.01, new Utf8Codec(), url -> url, Urls::origin,
            FrontierOptions.defaults("n").withCheckpointInterval(Duration.ofHours(1))
                .withConfirmation(kind.equals("confirmed")), Ticker.SYSTEM);
    long start = System.nanoTime();
    long urlBytes = 0;
    for (int i = 0; i < count; i++) {
      String url = Urls.CORPUS.url(i);
      urlBytes += url.length();
      frontier.offer(url);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    frontier.checkpoint(); // the store's recent fingerprints go to a run
    long queued = frontier.stats().queued();
    long heap = usedHeapAfterGc() - heapBefore;
    long disk = frontier instanceof DiskFrontier<String> d ? d.diskBytes() : 0;
    System.out.printf(Locale.ROOT, "%s frontier: %,d URLs queued (mean URL %.1f characters) in %.1f s (%,.0f/s)%n",
        kind, queued, (double) urlBytes / count, seconds, count / seconds);
    System.out.printf(Locale.ROOT, "  heap held by the frontier after a full GC: %,.1f MB (filter %,.1f MB)%n",
        heap / 1e6, frontier.stats().filterBits() / 8e6);
    if (disk > 0) {
      System.out.printf(Locale.ROOT, "  on disk: %,.1f MB, %.1f bytes per queued URL%n", disk / 1e6,
          (double) disk / queued);
    }
    if (kind.equals("confirmed")) {
      long runs;
      try (Stream<Path> files = Files.list(dir)) {
        runs = files.filter(f -> f.getFileName().toString().endsWith(".run")).mapToLong(f -> f.toFile().length())
            .sum();
      }
      int again = Math.min(count, 2_000_000);
      long t0 = System.nanoTime();
      long refused = 0;
      for (int i = 0; i < again; i++) {
        refused += frontier.offer(Urls.CORPUS.url((int) ((i * 7_919L) % count))) ? 0 : 1;
      }
      double perOffer = (System.nanoTime() - t0) / (double) again;
      System.out.printf(Locale.ROOT, "  exact store: %,.1f MB of runs, %.2f bytes per admitted URL; %,d URLs"
              + " rescued from false positives; %,d of %,d URLs offered again refused, %.0f ns per offer%n",
          runs / 1e6, (double) runs / frontier.stats().admitted(), frontier.stats().rescued(), refused, again,
          perOffer);
    }
    frontier.close();
    if (kind.equals("confirmed")) { // resume -n: the filter rebuilt from the store at twice the size, and checkpointed
      long t0 = System.nanoTime();
      DiskFrontier.open(dir, 2 * n, 0.01, new Utf8Codec(), url -> url, Urls::origin,
          FrontierOptions.defaults("n").withConfirmation(true), Ticker.SYSTEM).close();
      System.out.printf(Locale.ROOT, "  reopened with n = %,d: filter rebuilt from the store and checkpointed in %.2f s%n",
          2 * n, (System.nanoTime() - t0) / 1e9);
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}

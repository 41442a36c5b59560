package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM with the serial collector allocates 1.5 GB in objects that outlive a young collection and then die, as
 * pages in flight do: without the ceiling its old generation fills with them up to the maximum heap; with it, the
 * old generation stays within a few young collections' promotions of the live set plus the margin.
 *
 * <p>The ceiling acts on the JVM's notification thread after a young collection. The child promotes a thousand times
 * faster than a crawl, so on a loaded machine it could run hundreds of megabytes ahead of that thread; once the old
 * generation is past the ceiling it promotes nothing more until the ceiling's full collection, as a crawl's slower
 * promotion gives that thread time to act. Were the ceiling to miss a young collection, the child would wait for
 * ever: it exits with status 2 after 30 s.
 */
class HeapCeilingIT {
  private static final Pattern PEAK = Pattern.compile("old generation peak (\\d+) MB, (\\d+) full collections");
  private static final List<String> JVM = List.of("-XX:+UseSerialGC", "-Xms64m", "-Xmx512m", "-Xmn16m");

  @TempDir
  Path dir;

  @Test
  void boundsTheSerialCollectorsOldGeneration() throws Exception {
    long[] without = churn("without");
    long[] with = churn("with");
    assertTrue(without[0] > 350, "without the ceiling the old generation fills with garbage: " + without[0] + " MB");
    assertTrue(with[0] < 200, "with it, it stays near the live set (6 MB) plus the margin (32 MB): " + with[0] + " MB");
    assertTrue(with[1] > without[1], "by full collections: " + with[1] + " against " + without[1]);
  }

  @Test
  void doesNothingUnderOtherCollectors() {
    boolean serial = ManagementFactory.getGarbageCollectorMXBeans().stream()
        .anyMatch(gc -> gc.getName().equals("MarkSweepCompact"));
    try (HeapCeiling ceiling = HeapCeiling.install()) {
      assertEquals(serial, ceiling.isActive());
    }
  }

  /** Runs {@link Churn} in a child JVM; returns its old generation's peak in MB and its full collections. */
  private long[] churn(String ceiling) throws Exception {
    Path stderr = dir.resolve(ceiling + ".txt");
    Process child = ChildProcess.start(Churn.class, JVM, stderr, ceiling);
    assertTrue(child.waitFor(2, TimeUnit.MINUTES), "the child ends");
    String err = Files.readString(stderr);
    assertEquals(0, child.exitValue(), err);
    Matcher m = PEAK.matcher(err);
    assertTrue(m.find(), err);
    return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
  }

  /** Allocates 4 KB arrays, each kept until 1,500 newer ones exist (6 MB live); prints the old generation's peak. */
  public static final class Churn {
    private static volatile byte[] shortLived;

    public static void main(String[] args) {
      HeapCeiling ceiling = args[0].equals("with") ? HeapCeiling.install(32L << 20) : null;
      ArrayDeque<byte[]> window = new ArrayDeque<>();
      MemoryPoolMXBean old = ManagementFactory.getMemoryPoolMXBeans().stream()
          .filter(p -> p.getType() == MemoryType.HEAP && p.isUsageThresholdSupported()).findFirst().orElseThrow();
      for (int i = 0; i < 375_000; i++) {
        window.add(new byte[4096]);
        if (window.size() > 1_500) {
          window.poll();
        }
        if (ceiling != null && i % 64 == 0) {
          long fulls = fullCollections(); // before the check: the ceiling may collect in between
          if (pastCeiling(ceiling, old)) {
            awaitFullCollectionAfter(fulls, ceiling, old);
          }
        }
      }
      if (ceiling != null) {
        ceiling.close();
      }
      System.err.printf("old generation peak %d MB, %d full collections%n", old.getPeakUsage().getUsed() >> 20,
          fullCollections());
    }

    /**
     * Goes on allocating, but only garbage that dies young, until the serial collector's next full collection (or
     * until the ceiling, moved by the last one, is above the old generation again): the ceiling looks at the old
     * generation when a young collection ends, so young collections must go on, as they do in a crawl. Exits with
     * status 2 after 30 s without one.
     */
    private static void awaitFullCollectionAfter(long count, HeapCeiling ceiling, MemoryPoolMXBean old) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (fullCollections() == count && pastCeiling(ceiling, old)) {
        if (System.nanoTime() > deadline) {
          System.err.println("the old generation is past the ceiling and no full collection came in 30 s");
          System.exit(2);
        }
        for (int i = 0; i < 256; i++) {
          shortLived = new byte[4096];
        }
      }
    }

    private static boolean pastCeiling(HeapCeiling ceiling, MemoryPoolMXBean old) {
      long limit = ceiling.ceiling(); // 0: none
      return limit > 0 && old.getUsage().getUsed() > limit;
    }

    private static long fullCollections() {
      return ManagementFactory.getGarbageCollectorMXBeans().stream()
          .filter(gc -> gc.getName().equals("MarkSweepCompact")).mapToLong(GarbageCollectorMXBean::getCollectionCount)
          .sum();
    }
  }
}

package io.sievecrawl.sieve.jmh;

import io.sievecrawl.sieve.BloomFilter;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jol.info.GraphLayout;

/**
 * Not a JMH benchmark: prints (i) the bytes each competitor of {@link Structure} retains per URL at
 * n = 10,000,000, p = 1%, and (ii) how many URLs two threads racing to add the same fresh URLs both get told are new
 * ("double admissions").
 *
 * <p>(i) Filters: bit array bytes / n, and JOL's {@code GraphLayout.totalSize()} of the whole filter / n. Hash set:
 * JOL's total size of a {@code ConcurrentHashMap.newKeySet()} holding the URLs, strings included (a set must keep
 * them), divided by the count, for each count in {@code setSizes} (linear, so the per-URL figure holds at 10M).
 *
 * <p>(ii) Each structure, fresh, sized for n at p: two platform threads add the same {@code race} URLs in the same
 * order, in chunks of {@code chunk} URLs; before each chunk both spin on a barrier, so they start every chunk
 * together and race on the same URLs. A URL is double-admitted when both threads' add returned {@code true}
 * ("not admitted" counts URLs neither thread was told were new: false positives of a filter). Our filter and the set
 * must show 0 double admissions; Guava's {@code put} returns "some bit changed" with lock-free bit sets and can tell
 * both threads {@code true}.
 *
 * <p>Run:
 *
 * <pre>
 * mvn -q -B -pl sieve -Pjmh test-compile exec:exec -Djmh.main=io.sievecrawl.sieve.jmh.FootprintAndRaceReport \
 *     -Djmh.args="setSizes=1000000,2000000,4000000 race=5000000 chunk=1000"
 * </pre>
 */
public final class FootprintAndRaceReport {
  static final long N = 10_000_000;
  static final double FPP = 0.01;

  private FootprintAndRaceReport() {}

  public static void main(String[] args) throws Exception {
    // JOL cannot ask Unsafe for field offsets of records (BloomSizing) on recent JDKs, and the profile's JVM has
    // no -Djdk.attach.allowAttachSelf for its agent: let it find offsets its own way. Set before JOL loads.
    if (System.getProperty("jol.magicFieldOffset") == null) {
      System.setProperty("jol.magicFieldOffset", "true");
    }
    int[] setSizes = {1_000_000, 2_000_000, 4_000_000};
    int race = 5_000_000;
    int chunk = 1_000;
    boolean footprint = true;
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      switch (kv[0]) {
        case "setSizes" -> setSizes = Arrays.stream(kv[1].split(",")).mapToInt(Integer::parseInt).toArray();
        case "race" -> race = Integer.parseInt(kv[1]);
        case "chunk" -> chunk = Integer.parseInt(kv[1]);
        case "footprint" -> footprint = Boolean.parseBoolean(kv[1]);
        default -> throw new IllegalArgumentException("unknown argument " + arg
            + " (use setSizes=a,b,c race=N chunk=C footprint=true|false)");
      }
    }
    System.out.printf("JVM: %s %s (%s), %d CPUs, max heap %d MB%n", System.getProperty("java.vm.name"),
        System.getProperty("java.runtime.version"), System.getProperty("java.vm.vendor"),
        Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);

    double[] perUrl = new double[Structure.values().length];
    if (footprint) {
      footprint(setSizes, perUrl);
    }
    long[][] raceCounts = new long[Structure.values().length][];
    for (Structure structure : Structure.values()) {
      raceCounts[structure.ordinal()] = race(structure, race, chunk);
    }

    System.out.printf("%n== Summary: n = %,d, p = %s; race: 2 threads x %,d identical fresh URLs, chunks of %,d ==%n",
        N, FPP, race, chunk);
    System.out.printf("%-9s %14s %18s %14s %14s%n", "structure", "bytes per URL", "double admissions",
        "admitted once", "not admitted");
    for (Structure structure : Structure.values()) {
      long[] c = raceCounts[structure.ordinal()];
      System.out.printf("%-9s %14s %,18d %,14d %,14d%n", structure,
          footprint ? String.format("%.2f", perUrl[structure.ordinal()]) : "-", c[2], c[1], c[0]);
    }
  }

  // ---------------------------------------------------------------------------------------------- footprint

  private static void footprint(int[] setSizes, double[] perUrl) throws Exception {
    System.out.printf("%n== Footprint at n = %,d, p = %s ==%n", N, FPP);

    BloomFilter ours = BloomFilter.create(N, FPP);
    long ourBitBytes = ours.bitSize() / 8;
    long ourTotal = GraphLayout.parseInstance(ours).totalSize();
    System.out.printf("SIEVE     bits m = %,d (k = %d): bit array %,d bytes = %.3f B/URL; JOL total %,d bytes = "
        + "%.3f B/URL%n", ours.bitSize(), ours.hashCount(), ourBitBytes, (double) ourBitBytes / N, ourTotal,
        (double) ourTotal / N);
    perUrl[Structure.SIEVE.ordinal()] = (double) ourTotal / N;

    Object guava = Structure.GUAVA.create(N, FPP).unwrap();
    long guavaBits = guavaBitSize(guava);
    long guavaTotal = GraphLayout.parseInstance(guava).totalSize();
    System.out.printf("GUAVA     bits m = %,d: bit array %,d bytes = %.3f B/URL; JOL total %,d bytes = %.3f B/URL%n",
        guavaBits, guavaBits / 8, guavaBits / 8.0 / N, guavaTotal, (double) guavaTotal / N);
    perUrl[Structure.GUAVA.ordinal()] = (double) guavaTotal / N;

    // The hash set: JOL over the set and every string it holds, at a few sizes, to show the cost is linear.
    List<double[]> points = new ArrayList<>();
    for (int size : setSizes) {
      @SuppressWarnings("unchecked")
      Set<String> set = (Set<String>) Structure.HASH_SET.create(N, FPP).unwrap();
      Urls.prefill(new Structure.SetTarget(set), size, false);
      System.gc();
      long start = System.nanoTime();
      GraphLayout layout = GraphLayout.parseInstance(set);
      long total = layout.totalSize();
      long strings = 0;
      long stringBytes = 0;
      for (Class<?> c : layout.getClasses()) {
        if (c == String.class || c == byte[].class) {
          strings += layout.getClassSizes().count(c);
        }
        if (c == byte[].class) {
          stringBytes = layout.getClassCounts().count(c);
        }
      }
      System.out.printf("HASH_SET  %,11d URLs: JOL total %,15d bytes = %7.2f B/URL (strings %.2f, set %.2f); "
              + "%,d byte[]; %.1f s%n", size, total, (double) total / size, (double) strings / size,
          (double) (total - strings) / size, stringBytes, (System.nanoTime() - start) / 1e9);
      points.add(new double[] {size, total});
      set = null;
      layout = null;
      System.gc();
    }
    if (!points.isEmpty()) {
      // Least-squares line through the points: bytes = a + b * size; b is the marginal cost per URL.
      double sx = 0, sy = 0, sxx = 0, sxy = 0;
      for (double[] pt : points) {
        sx += pt[0];
        sy += pt[1];
        sxx += pt[0] * pt[0];
        sxy += pt[0] * pt[1];
      }
      int m = points.size();
      double slope = m > 1 ? (m * sxy - sx * sy) / (m * sxx - sx * sx) : sy / sx;
      double intercept = (sy - slope * sx) / m;
      double at10M = intercept + slope * N;
      System.out.printf("HASH_SET  linear fit: %.2f B/URL + %,.0f bytes; at n = %,d: %,.0f bytes = %.2f B/URL%n",
          slope, intercept, N, at10M, at10M / N);
      for (double[] pt : points) {
        System.out.printf("          fit residual at %,.0f: %+.3f%%%n", pt[0],
            100 * (pt[1] - (intercept + slope * pt[0])) / pt[1]);
      }
      perUrl[Structure.HASH_SET.ordinal()] = at10M / N;
    }
  }

  /** Guava's BloomFilter.bitSize() is package-private; fall back to its sizing formula if reflection fails. */
  private static long guavaBitSize(Object guava) {
    try {
      Method bitSize = guava.getClass().getDeclaredMethod("bitSize");
      bitSize.setAccessible(true);
      return (Long) bitSize.invoke(guava);
    } catch (ReflectiveOperationException | RuntimeException e) {
      long bits = (long) (-N * Math.log(FPP) / (Math.log(2) * Math.log(2)));
      return (bits + 63) / 64 * 64;
    }
  }

  // --------------------------------------------------------------------------------------------------- race

  /** Returns {not admitted, admitted once, admitted twice}. */
  private static long[] race(Structure structure, int count, int chunk) throws InterruptedException {
    // URL numbers 20M.. are outside every other benchmark's range; each thread gets the same String instances.
    String[] urls = Urls.range(20_000_000L, count);
    Structure.Target target = structure.create(N, FPP);
    boolean[][] won = new boolean[2][count];
    AtomicInteger arrived = new AtomicInteger();
    int chunks = (count + chunk - 1) / chunk;
    Thread[] threads = new Thread[2];
    for (int t = 0; t < 2; t++) {
      boolean[] mine = won[t];
      threads[t] = new Thread(() -> {
        for (int c = 0; c < chunks; c++) {
          // Spin barrier: both threads enter chunk c together (parking would stagger them by microseconds).
          arrived.incrementAndGet();
          int goal = 2 * (c + 1);
          while (arrived.get() < goal) {
            Thread.onSpinWait();
          }
          int end = Math.min(count, (c + 1) * chunk);
          for (int i = c * chunk; i < end; i++) {
            mine[i] = target.add(urls[i]);
          }
        }
      }, "racer-" + t);
    }
    long start = System.nanoTime();
    for (Thread thread : threads) {
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long[] byWins = new long[3];
    for (int i = 0; i < count; i++) {
      byWins[(won[0][i] ? 1 : 0) + (won[1][i] ? 1 : 0)]++;
    }
    System.out.printf("%n== Race: %s, 2 threads x %,d identical URLs in chunks of %,d: %.2f s ==%n", structure, count,
        chunk, seconds);
    System.out.printf("  both told new (double admission): %,d; exactly one: %,d; neither: %,d%n", byWins[2],
        byWins[1], byWins[0]);
    return byWins;
  }
}

package io.sievecrawl.sieve.jmh;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * How fast is a membership lookup at n = 10,000,000, p = 1%, half hits and half misses: our
 * {@code BloomFilter.mightContain}, Guava's {@code BloomFilter.mightContain}, and
 * {@code ConcurrentHashMap.newKeySet().contains}?
 *
 * <p>The structure ({@link Structure}, shared) holds URLs 0 to n/2 - 1. The queries are a precomputed array of
 * {@value #QUERIES} URLs in a fixed random order: half are pre-filled URLs picked at random (hits), half are URLs
 * never added (misses; a filter answers {@code true} for about its current false-positive rate of them). Hits are
 * new String objects, not the instances stored in the hash set, as in a crawler where the looked-up URL has just
 * been parsed from a page. Each thread walks the whole array with its own cursor, starting at its own offset. The
 * structure is never written during the measurement. The secondary result {@code contains:found} counts
 * {@code true} answers.
 *
 * <p>Run (1 thread, then 2):
 *
 * <pre>
 * mvn -q -B -pl sieve -Pjmh test-compile exec:exec -Djmh.args="ContainsBenchmark -f 1 -wi 3 -w 2s -i 5 -r 2s -t 1"
 * mvn -q -B -pl sieve -Pjmh test-compile exec:exec -Djmh.args="ContainsBenchmark -f 1 -wi 3 -w 2s -i 5 -r 2s -t 2"
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ContainsBenchmark {
  static final long N = 10_000_000;
  static final double FPP = 0.01;
  static final int PREFILL = (int) (N / 2);
  /** Queries: 2^22, half hits and half misses. */
  static final int QUERIES = 1 << 22;

  @State(Scope.Benchmark)
  public static class Shared {
    @Param({"SIEVE", "GUAVA", "HASH_SET"})
    public Structure structure;

    Structure.Target target;
    String[] queries;
    /** The stored strings of the hash set, held here only to make the ownership explicit. */
    @SuppressWarnings("unused")
    private String[] stored;

    @Setup(Level.Trial)
    public void setUp() {
      target = structure.create(N, FPP);
      stored = Urls.prefill(target, PREFILL, structure == Structure.HASH_SET);
      SplittableRandom random = new SplittableRandom(42);
      long[] indexes = new long[QUERIES];
      for (int i = 0; i < QUERIES; i++) {
        // Even positions: a random pre-filled URL; odd positions: URL number n/2 + i, never added.
        indexes[i] = (i & 1) == 0 ? random.nextInt(PREFILL) : PREFILL + i;
      }
      for (int i = QUERIES - 1; i > 0; i--) { // Fisher-Yates, so hits and misses come in a random order
        int j = random.nextInt(i + 1);
        long t = indexes[i];
        indexes[i] = indexes[j];
        indexes[j] = t;
      }
      queries = Urls.at(indexes);
    }
  }

  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Walker {
    /** Lookups that answered {@code true}: reported as the secondary result {@code found}. */
    public long found;

    private String[] queries;
    private int cursor;

    @Setup(Level.Trial)
    public void start(Shared shared, ThreadParams threads) {
      queries = shared.queries;
      cursor = (int) ((long) queries.length * threads.getThreadIndex() / threads.getThreadCount());
    }


    String next() {
      String url = queries[cursor];
      if (++cursor == queries.length) {
        cursor = 0;
      }
      return url;
    }
  }

  @Benchmark
  public boolean contains(Shared shared, Walker walker) {
    boolean present = shared.target.contains(walker.next());
    walker.found += present ? 1 : 0;
    return present;
  }
}

package io.sievecrawl.sieve.jmh;

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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * How fast is add-if-absent at n = 10,000,000, p = 1%: our {@code BloomFilter.add}, Guava's {@code BloomFilter.put},
 * and {@code ConcurrentHashMap.newKeySet().add}?
 *
 * <p>Setup. The structure ({@link Structure}, shared by all threads) is filled with URLs 0 to n/2 - 1 before the
 * trial, so the bit array and the hash table are at working size. The measured operation adds fresh URLs: a
 * precomputed array of {@value #FRESH} distinct URLs none of which is in the pre-fill, split into one slice per
 * thread; each thread walks its own slice with its own cursor, so the two threads never add the same URL.
 *
 * <p>Keeping adds fresh. Before every iteration (warm-up and measurement) the structure goes back to its pre-filled
 * state: the filters are replaced by a copy of a pre-filled snapshot, and the hash set has the URLs added in the
 * iteration removed again (by each thread, for its own slice, after the iteration). So the hash set never grows
 * beyond n/2 + {@value #FRESH}, and an add is a first add unless a thread walks past the end of its slice within one
 * iteration, in which case it wraps and re-adds URLs already present (cheap "already present" calls). The secondary
 * result {@code add:admitted} counts the calls that returned {@code true}: compare it with the primary ops/s to see the
 * share of first adds (for the filters, about p of the fresh URLs are also rejected as false positives).
 *
 * <p>Run (1 thread, then 2):
 *
 * <pre>
 * mvn -q -B -pl sieve -Pjmh test-compile exec:exec -Djmh.args="AddBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s -t 1"
 * mvn -q -B -pl sieve -Pjmh test-compile exec:exec -Djmh.args="AddBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s -t 2"
 * </pre>
 *
 * Keep an iteration short enough that a thread does not exhaust its slice ({@value #FRESH} / threads URLs): check
 * that {@code add:admitted} stays close to the primary score.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AddBenchmark {
  /** n, expected insertions. */
  static final long N = 10_000_000;
  /** p, target false-positive rate. */
  static final double FPP = 0.01;
  /** URLs added before the trial: half of n. */
  static final int PREFILL = (int) (N / 2);
  /** Fresh URLs available to the measured adds, shared out among the threads (2^23, about 1 GB of strings). */
  static final int FRESH = 1 << 23;

  @State(Scope.Benchmark)
  public static class Shared {
    @Param({"SIEVE", "GUAVA", "HASH_SET"})
    public Structure structure;

    /** What the measured loop adds to; replaced by a copy of {@link #prefilled} before each iteration. */
    Structure.Target target;
    /** The pre-filled filter, never touched by the measured loop; {@code null} for the hash set. */
    private Structure.Target prefilled;
    /** The fresh URLs: indexes n/2 ... n/2 + FRESH - 1 of the corpus, disjoint from the pre-fill. */
    String[] fresh;

    @Setup(Level.Trial)
    public void setUp() {
      Structure.Target built = structure.create(N, FPP);
      // The hash set must keep its strings; the filters only see them.
      Urls.prefill(built, PREFILL, false);
      fresh = Urls.range(PREFILL, FRESH);
      if (structure == Structure.HASH_SET) {
        target = built;
      } else {
        prefilled = built;
      }
    }

    @Setup(Level.Iteration)
    public void restoreFilter() {
      if (prefilled != null) {
        target = prefilled.copy();
      }
    }
  }

  /** One thread's cursor over its own slice of {@link Shared#fresh}. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Walker {
    /** Calls that returned {@code true}: reported as the secondary result {@code admitted}. */
    public long admitted;

    private String[] fresh;
    private int start;
    private int end;
    private int cursor;
    private boolean wrapped;

    @Setup(Level.Trial)
    public void slice(Shared shared, ThreadParams threads) {
      fresh = shared.fresh;
      int length = fresh.length / threads.getThreadCount();
      start = threads.getThreadIndex() * length;
      end = start + length;
      cursor = start;
    }


    /** Undoes this thread's adds to the hash set, so the next iteration adds fresh URLs again. */
    @TearDown(Level.Iteration)
    public void rewind(Shared shared) {
      if (shared.structure == Structure.HASH_SET) {
        int last = wrapped ? end : cursor;
        for (int i = start; i < last; i++) {
          shared.target.remove(fresh[i]);
        }
      }
      cursor = start;
      wrapped = false;
    }

    String next() {
      String url = fresh[cursor];
      if (++cursor == end) {
        cursor = start;
        wrapped = true;
      }
      return url;
    }
  }

  @Benchmark
  public boolean add(Shared shared, Walker walker) {
    boolean added = shared.target.add(walker.next());
    walker.admitted += added ? 1 : 0;
    return added;
  }
}

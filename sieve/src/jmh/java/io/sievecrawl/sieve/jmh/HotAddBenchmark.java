package io.sievecrawl.sieve.jmh;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
 * How fast is add-if-absent of a new URL that is already in the CPU cache, as a crawler has it right after
 * extracting it from a page: our {@code BloomFilter.add}, Guava's {@code BloomFilter.put}, and
 * {@code ConcurrentHashMap.newKeySet().add}, at n = 10,000,000, p = 1%?
 *
 * <p>{@link AddBenchmark} reads each URL from a 1 GB array, so one or two cache misses on the input, the same for
 * every competitor, dominate its figures. Here each thread keeps 1,024 precomputed URLs (40 to 120 characters, from
 * the shared corpus) in small mutable ASCII {@link CharSequence}s whose last eight characters are overwritten in
 * place with a per-call counter, so every call adds a URL never seen before, the input is hot, and the measured
 * loop allocates nothing of its own. What a competitor does with a {@code CharSequence} is its own cost: Guava's
 * string funnel and the hash set both turn it into a {@code String}. The structure is pre-filled with n/2 URLs and
 * restored to that state before every iteration.
 *
 * <p>Run (1 thread, then 2):
 *
 * <pre>
 * mvn -q -B -pl sieve -Pjmh test-compile exec:exec -Djmh.args="HotAddBenchmark -f 1 -wi 3 -w 2s -i 8 -r 2s -t 1"
 * mvn -q -B -pl sieve -Pjmh test-compile exec:exec -Djmh.args="HotAddBenchmark -f 1 -wi 3 -w 2s -i 8 -r 2s -t 2"
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 8, time = 2)
@Fork(1)
public class HotAddBenchmark {
  private static final int TEMPLATES = 1024;
  private static final int COUNTER_CHARS = 8;
  private static final char[] DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();

  @State(Scope.Benchmark)
  public static class Shared {
    @Param({"SIEVE", "GUAVA", "HASH_SET"})
    public Structure structure;

    Structure.Target target;
    private Structure.Target prefilled;

    @Setup(Level.Trial)
    public void setUp() {
      prefilled = structure.create(AddBenchmark.N, AddBenchmark.FPP);
      Urls.prefill(prefilled, AddBenchmark.PREFILL, false);
    }

    @Setup(Level.Iteration)
    public void restore() {
      if (structure == Structure.HASH_SET) {
        @SuppressWarnings("unchecked")
        Set<String> set = (Set<String>) prefilled.unwrap();
        Set<String> copy = ConcurrentHashMap.newKeySet(set.size() * 2);
        copy.addAll(set);
        target = new Structure.SetTarget(copy);
      } else {
        target = prefilled.copy();
      }
    }
  }

  /** An ASCII URL whose characters can be rewritten in place: a final class, so {@code charAt} is one array read. */
  static final class MutableUrl implements CharSequence {
    private final byte[] chars;

    MutableUrl(String ascii) {
      chars = ascii.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public int length() {
      return chars.length;
    }

    @Override
    public char charAt(int index) {
      return (char) chars[index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return toString().substring(start, end);
    }

    @Override
    public String toString() {
      return new String(chars, StandardCharsets.ISO_8859_1);
    }

    void setCharAt(int index, char c) {
      chars[index] = (byte) c;
    }
  }

  /** One thread's URLs, rewritten in place for every call. */
  @State(Scope.Thread)
  public static class Writer {
    private final MutableUrl[] urls = new MutableUrl[TEMPLATES];
    private long counter;
    private int thread;
    private int threads;

    @Setup(Level.Trial)
    public void setUp(ThreadParams params) {
      thread = params.getThreadIndex();
      threads = params.getThreadCount();
      String[] templates = Urls.range(AddBenchmark.N + (long) thread * TEMPLATES, TEMPLATES);
      for (int i = 0; i < TEMPLATES; i++) {
        urls[i] = new MutableUrl(templates[i] + "/v" + "0".repeat(COUNTER_CHARS));
      }
    }

    CharSequence next() {
      MutableUrl url = urls[(int) (counter & (TEMPLATES - 1))];
      long value = counter++ * threads + thread; // distinct across calls and threads
      int end = url.length();
      for (int i = 1; i <= COUNTER_CHARS; i++, value /= 36) {
        url.setCharAt(end - i, DIGITS[(int) (value % 36)]);
      }
      return url;
    }
  }

  @Benchmark
  public boolean add(Shared shared, Writer writer) {
    return shared.target.add(writer.next());
  }
}

package io.sievecrawl.sieve.jmh;

import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.Sieve;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.disk.DiskFrontier;
import io.sievecrawl.sieve.disk.FrontierOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * How many new URLs per second can a frontier admit: the in-memory {@link Sieve} against the {@link DiskFrontier}
 * (filter add, task encoding, a CRC'd record appended to the log buffer, written out as the buffer fills, forced
 * every second by its background thread)?
 *
 * <p>Setup: n = 10,000,000, p = 1%, like the filter benchmarks. Each iteration starts a fresh frontier (the disk one
 * in a new temporary directory, deleted after) and offers URLs none of which it has seen, from a precomputed array
 * with one slice per thread. Nothing is taken out: the question is admission, the crawler's hot path per link.
 *
 * <p>Run: {@code mvn -q -B -pl sieve -Pjmh test-compile exec:exec -Djmh.args="FrontierOfferBenchmark -t 1"} (then
 * {@code -t 2}); the temporary directories go to {@code java.io.tmpdir}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 8, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class FrontierOfferBenchmark {
  private static final int FRESH = 6_000_000;
  private static final String[] URLS = Urls.range(100_000_000L, FRESH);

  @Param({"memory", "disk"})
  public String frontier;

  Frontier<String> target;
  Path dir;

  @Setup(Level.Iteration)
  public void open() throws IOException {
    if (frontier.equals("memory")) {
      target = Sieve.over(BloomFilter.create(10_000_000, 0.01), url -> url, Urls::origin, "n");
    } else {
      dir = Files.createTempDirectory("frontier-bench");
      target = DiskFrontier.open(dir, 10_000_000, 0.01, new Utf8Codec(), url -> url, Urls::origin,
          FrontierOptions.defaults("n").withCheckpointInterval(Duration.ofHours(1)), Ticker.SYSTEM);
    }
  }

  @TearDown(Level.Iteration)
  public void close() throws IOException {
    target.close();
    if (dir != null) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  /** One thread's cursor into its own slice of the fresh URLs. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;
    int end;

    @Setup(Level.Iteration)
    public void slice(ThreadParams threads) {
      int size = FRESH / threads.getThreadCount();
      next = threads.getThreadIndex() * size;
      end = next + size;
    }
  }

  @Benchmark
  public boolean offer(Cursor cursor) {
    if (cursor.next == cursor.end) {
      throw new IllegalStateException("ran out of fresh URLs: lengthen FRESH or shorten the iterations");
    }
    return target.offer(URLS[cursor.next++]);
  }
}

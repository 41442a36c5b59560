package io.sievecrawl.sieve.jmh;

import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomFilterFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The size of a filter file (n = 10M, p = 0.001, the crawl's defaults) holding 12, 1,000 and 1M URLs, and the time
 * to write and read it at n URLs, when about half its bits are set.
 *
 * <p>Run: {@code mvn -q -B -pl sieve -Pjmh test-compile exec:exec -Djmh.main=io.sievecrawl.sieve.jmh.FilterFileReport}
 * (times are the median and fastest of 21 rounds after 3 of warm-up: encoding to a stream that discards it, writing
 * to and reading from the page cache).
 */
public final class FilterFileReport {
  private static final long N = 10_000_000;
  private static final double P = 0.001;

  private FilterFileReport() {}

  public static void main(String[] args) throws IOException {
    Path dir = Files.createTempDirectory("filter-file");
    Path file = dir.resolve("filter.bf");
    BloomFilter filter = BloomFilter.create(N, P);
    System.out.printf(Locale.ROOT, "n = %,d, p = %s: %,d bytes of bits%n", N, P, filter.sizing().bytes());
    long added = 0;
    for (long target : new long[] {0, 12, 1_000, 1_000_000, N}) {
      for (; added < target; added++) {
        filter.add(Urls.CORPUS.url(added));
      }
      BloomFilterFile.write(filter, file);
      System.out.printf(Locale.ROOT, "%,12d URLs, %5.1f%% of bits set: file %,12d bytes%n", target,
          100.0 * filter.bitCount() / filter.sizing().bits(), Files.size(file));
    }
    long[] encodes = new long[21];
    long[] writes = new long[21];
    long[] reads = new long[21];
    for (int round = -3; round < writes.length; round++) {
      long encode = System.nanoTime();
      BloomFilterFile.write(filter, OutputStream.nullOutputStream());
      long start = System.nanoTime();
      BloomFilterFile.write(filter, file);
      long written = System.nanoTime();
      BloomFilter copy = BloomFilterFile.read(file);
      long read = System.nanoTime();
      if (copy.bitCount() != filter.bitCount()) {
        throw new AssertionError("the copy differs");
      }
      if (round >= 0) {
        encodes[round] = start - encode;
        writes[round] = written - start;
        reads[round] = read - written;
      }
    }
    System.out.printf(Locale.ROOT, "full filter: encode %s, write %s, read %s (median / fastest of %d)%n",
        ms(encodes), ms(writes), ms(reads), writes.length);
    Files.delete(file);
    Files.delete(dir);
  }

  private static String ms(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return String.format(Locale.ROOT, "%.1f / %.1f ms", sorted[sorted.length / 2] / 1e6, sorted[0] / 1e6);
  }
}

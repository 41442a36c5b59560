package io.sievecrawl.app;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.config.Values;
import io.sievecrawl.sieve.BloomSizing;
import java.util.Locale;

/**
 * Checks, before anything is allocated, that the URL filter n and p ask for can exist: within the largest filter
 * one array holds, and within this JVM's heap when the filter lives here (not in Redis). Says what to change.
 */
final class FilterFit {
  /** Room the heap needs besides the filter: buffers, windows, pages being parsed. */
  private static final long HEAP_BESIDES_FILTER = 96L << 20;

  private FilterFit() {}

  /**
   * @param inThisHeap whether the filter is allocated in this process
   * @throws UserError with {@link ExitCodes#CONFIG} saying what to change
   */
  static void check(CrawlSettings settings, boolean inThisHeap) {
    long n = settings.filter().expectedUrls();
    double p = settings.filter().falsePositiveRate();
    BloomSizing sizing;
    try {
      sizing = BloomSizing.of(n, p);
    } catch (IllegalArgumentException e) {
      throw new UserError(ExitCodes.CONFIG, String.format(Locale.ROOT, "%s = %s at %s = %s needs a larger URL filter"
          + " than one can be (%s); at this p, n can be at most %s: lower -n or raise -p", Setting.FILTER_N.key(),
          count(n), Setting.FILTER_P.key(), p, Values.formatSize(BloomSizing.MAX_BLOCKS * BloomSizing.BLOCK_BITS / 8),
          count(largestN(p))));
    }
    long heap = Runtime.getRuntime().maxMemory();
    if (inThisHeap && heap != Long.MAX_VALUE && sizing.bytes() + HEAP_BESIDES_FILTER > heap) {
      long wantedMb = heapMegabytes(sizing);
      throw new UserError(ExitCodes.CONFIG, String.format(Locale.ROOT, "this JVM's heap (%s) is too small for the"
          + " crawl: the URL filter for n = %s at p = %s takes %s, and the crawl needs about %s besides; run with"
          + " SIEVECRAWL_OPTS=-Xmx%dm%s", mebibytes(heap), count(n), p, mebibytes(sizing.bytes()),
          mebibytes(HEAP_BESIDES_FILTER), wantedMb,
          sizing.bytes() > HEAP_BESIDES_FILTER ? ", or lower -n" : ""));
    }
  }

  /**
   * The heap a crawl with this filter should be given, in MiB: the filter, what the crawl needs besides, and a
   * quarter more for the garbage collector.
   */
  static long heapMegabytes(BloomSizing sizing) {
    return (sizing.bytes() + HEAP_BESIDES_FILTER) * 5 / 4 >> 20;
  }

  /**
   * What {@code plan} says of the heap: the {@code -Xmx} a crawl with this filter needs, when a JVM's default heap of
   * {@code defaultHeap} bytes is too small for it.
   */
  static String heapLine(BloomSizing sizing, long defaultHeap) {
    long wanted = heapMegabytes(sizing);
    if (defaultHeap != Long.MAX_VALUE && sizing.bytes() + HEAP_BESIDES_FILTER <= defaultHeap) {
      return String.format(Locale.ROOT, "heap: the crawl needs about %,d MiB (the filter, %s besides, a quarter more"
          + " for the collector), within the default heap here (%s)", wanted, mebibytes(HEAP_BESIDES_FILTER),
          mebibytes(defaultHeap));
    }
    return String.format(Locale.ROOT, "heap: the crawl needs about %,d MiB (the filter, %s besides, a quarter more"
        + " for the collector), more than the default heap here (%s): run it with SIEVECRAWL_OPTS=-Xmx%dm", wanted,
        mebibytes(HEAP_BESIDES_FILTER), mebibytes(defaultHeap), wanted);
  }

  /** A count as it is typed back: {@code 10M} when round, else with thousands separators ({@code 12,345,678}). */
  static String count(long n) {
    String shortened = Values.formatCount(n);
    return shortened.equals(Long.toString(n)) ? String.format(Locale.ROOT, "%,d", n) : shortened;
  }

  /** {@code bytes} in the unit of {@code -Xmx...m}, so that the figures compare with the option. */
  private static String mebibytes(long bytes) {
    double mib = bytes / (double) (1 << 20);
    return String.format(Locale.ROOT, mib < 10 ? "%.1f MiB" : "%,.0f MiB", mib);
  }

  /** The largest n a filter can hold at {@code p}. */
  static long largestN(double p) {
    long lo = 1;
    long hi = 1L << 40;
    while (lo < hi) {
      long mid = lo + (hi - lo + 1) / 2;
      if (fits(mid, p)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private static boolean fits(long n, double p) {
    try {
      BloomSizing.of(n, p);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}

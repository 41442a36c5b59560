package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomSizing;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Grows a {@link DiskFrontier}'s URL filter from its exact store when the estimate passes n (the frontier's note 8):
 * a filter twice the URLs seen is built in the background while the crawl goes on, then put in and checkpointed.
 */
final class FilterGrowth {
  private static final Logger log = LoggerFactory.getLogger(FilterGrowth.class);

  private final Path dir;
  private final AdmissionGate gate;
  private final FilterCheckpoints checkpoints;
  private final QueueLog<?> queues;
  private final FrontierOptions.ResizeListener resized;
  private final Executor background;
  private final Ticker ticker;
  private final AtomicBoolean growing = new AtomicBoolean();

  FilterGrowth(Path dir, AdmissionGate gate, FilterCheckpoints checkpoints, QueueLog<?> queues,
      FrontierOptions.ResizeListener resized, Executor background, Ticker ticker) {
    this.dir = dir;
    this.gate = gate;
    this.checkpoints = checkpoints;
    this.queues = queues;
    this.resized = resized;
    this.background = background;
    this.ticker = ticker;
  }

  /**
   * Asked by the capacity monitor when the estimate passes a level: starts building a filter for {@code newN} URLs
   * if the heap has room for it beside the old one, and says what it did, for the warning.
   */
  String start(long newN) {
    BloomFilter old = gate.filter();
    long bytes;
    try {
      bytes = BloomSizing.of(newN, old.targetFpp()).bits() / 8;
    } catch (IllegalArgumentException e) {
      return "Not growing it: " + e.getMessage() + ".";
    }
    Runtime runtime = Runtime.getRuntime();
    long free = runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
    String size = String.format(Locale.ROOT, "n = %,d (%,.1f MB)", newN, bytes / 1e6);
    if (bytes > free / 2) {
      return String.format(Locale.ROOT, "Not growing it to %s: the heap has %,.1f MB free; resume with a larger"
          + " heap and -n %d.", size, free / 1e6, newN);
    }
    if (!growing.compareAndSet(false, true)) {
      return "A larger filter is being built already.";
    }
    background.execute(() -> growQuietly(newN));
    return "Growing it to " + size + " from the exact store, in the background.";
  }

  private void growQuietly(long newN) {
    try {
      grow(newN);
    } catch (IOException | RuntimeException e) {
      log.warn("could not grow the URL filter of the frontier in {}: {}", dir, e.getMessage());
    } finally {
      growing.set(false);
    }
  }

  /** Replaces the filter by one of capacity {@code newN} holding every admitted URL (note 8), and checkpoints it. */
  void grow(long newN) throws IOException {
    long started = ticker.nanos();
    BloomFilter grown;
    long[] urls = new long[1]; // the store's exact count, not the new filter's estimate of it
    synchronized (checkpoints.monitor()) {
      if (queues.isClosed()) {
        return;
      }
      BloomFilter old = gate.filter();
      grown = BloomFilter.create(BloomSizing.of(newN, old.targetFpp()), old.seed(), BloomFilter.Hashing.FINGERPRINT);
      LongConsumer add = fingerprint -> {
        grown.addFingerprint(fingerprint);
        urls[0]++;
      };
      gate.seen().forEachSettled(add);
      gate.close();
      try {
        gate.seen().forEachRecent(add);
        gate.replaceFilter(grown);
      } finally {
        gate.open();
      }
    }
    checkpoints.write();
    if (queues.isClosed()) {
      return; // closed before the checkpoint: the next run rebuilds the filter at the size its owner recorded
    }
    log.info("frontier in {}: grew the URL filter to n = {} in {} ms; it holds the {} URLs admitted then", dir,
        String.format(Locale.ROOT, "%,d", newN), (ticker.nanos() - started) / 1_000_000,
        String.format(Locale.ROOT, "%,d", urls[0]));
    resized.resized(newN, grown.targetFpp());
  }
}

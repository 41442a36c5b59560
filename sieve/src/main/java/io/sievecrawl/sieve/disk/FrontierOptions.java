package io.sievecrawl.sieve.disk;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link DiskFrontier} lays out and forces its files.
 *
 * @param segmentBytes a log segment is closed and a new one started past this size; whole segments are deleted once
 *     every task in them is done and the filter checkpoint covers them
 * @param syncInterval how often the log is forced to the device: a power cut loses at most about this much of the
 *     latest admissions and acknowledgements (a kill of the process loses nothing)
 * @param checkpointInterval how often the URL filter is written out, which lets old segments be deleted and bounds
 *     the log replayed on recovery
 * @param capacityKey the setting the capacity warning tells the user to raise
 * @param confirm whether a frontier created with these options keeps an exact store of fingerprints that confirms
 *     the filter's "maybe seen" answers; a frontier that exists keeps what it was created with
 * @param grow whether a frontier with an exact store replaces its filter by one twice as large as the URLs seen,
 *     rebuilt from the store in the background, when the filter's estimate passes its n
 * @param resized told the new n and p once a grown filter is checkpointed, to record them where the frontier's
 *     owner keeps its settings
 */
public record FrontierOptions(long segmentBytes, Duration syncInterval, Duration checkpointInterval,
    String capacityKey, boolean confirm, boolean grow, ResizeListener resized) {

  /** Told when the frontier's filter was grown; runs on the frontier's background thread. */
  @FunctionalInterface
  public interface ResizeListener {
    void resized(long n, double p) throws IOException;
  }
  public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;

  public FrontierOptions {
    if (segmentBytes < 4096) {
      throw new IllegalArgumentException("segmentBytes (" + segmentBytes + ") must be at least 4096");
    }
    Objects.requireNonNull(syncInterval, "syncInterval");
    Objects.requireNonNull(checkpointInterval, "checkpointInterval");
    Objects.requireNonNull(capacityKey, "capacityKey");
    Objects.requireNonNull(resized, "resized");
    if (syncInterval.isNegative() || syncInterval.isZero() || checkpointInterval.isNegative()
        || checkpointInterval.isZero()) {
      throw new IllegalArgumentException("intervals must be positive");
    }
  }

  /** 64 MB segments, forced every second, the filter written every five minutes, no exact store. */
  public static FrontierOptions defaults(String capacityKey) {
    return new FrontierOptions(DEFAULT_SEGMENT_BYTES, Duration.ofSeconds(1), Duration.ofMinutes(5), capacityKey,
        false, false, (n, p) -> {});
  }

  public FrontierOptions withConfirmation(boolean on) {
    return new FrontierOptions(segmentBytes, syncInterval, checkpointInterval, capacityKey, on, grow, resized);
  }

  /** Growth of the filter (with an exact store), and who records a new size. */
  public FrontierOptions withGrowth(boolean on, ResizeListener listener) {
    return new FrontierOptions(segmentBytes, syncInterval, checkpointInterval, capacityKey, confirm, on, listener);
  }

  public FrontierOptions withSyncInterval(Duration interval) {
    return new FrontierOptions(segmentBytes, interval, checkpointInterval, capacityKey, confirm, grow, resized);
  }

  public FrontierOptions withCheckpointInterval(Duration interval) {
    return new FrontierOptions(segmentBytes, syncInterval, interval, capacityKey, confirm, grow, resized);
  }

  public FrontierOptions withSegmentBytes(long bytes) {
    return new FrontierOptions(bytes, syncInterval, checkpointInterval, capacityKey, confirm, grow, resized);
  }
}

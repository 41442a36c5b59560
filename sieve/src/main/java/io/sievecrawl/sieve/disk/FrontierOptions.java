package io.sievecrawl.sieve.disk;

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
 */
public record FrontierOptions(long segmentBytes, Duration syncInterval, Duration checkpointInterval,
    String capacityKey, boolean confirm) {
  public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;

  public FrontierOptions {
    if (segmentBytes < 4096) {
      throw new IllegalArgumentException("segmentBytes (" + segmentBytes + ") must be at least 4096");
    }
    Objects.requireNonNull(syncInterval, "syncInterval");
    Objects.requireNonNull(checkpointInterval, "checkpointInterval");
    Objects.requireNonNull(capacityKey, "capacityKey");
    if (syncInterval.isNegative() || syncInterval.isZero() || checkpointInterval.isNegative()
        || checkpointInterval.isZero()) {
      throw new IllegalArgumentException("intervals must be positive");
    }
  }

  /** 64 MB segments, forced every second, the filter written every five minutes, no exact store. */
  public static FrontierOptions defaults(String capacityKey) {
    return new FrontierOptions(DEFAULT_SEGMENT_BYTES, Duration.ofSeconds(1), Duration.ofMinutes(5), capacityKey,
        false);
  }

  public FrontierOptions withConfirmation(boolean on) {
    return new FrontierOptions(segmentBytes, syncInterval, checkpointInterval, capacityKey, on);
  }

  public FrontierOptions withSyncInterval(Duration interval) {
    return new FrontierOptions(segmentBytes, interval, checkpointInterval, capacityKey, confirm);
  }

  public FrontierOptions withCheckpointInterval(Duration interval) {
    return new FrontierOptions(segmentBytes, syncInterval, interval, capacityKey, confirm);
  }

  public FrontierOptions withSegmentBytes(long bytes) {
    return new FrontierOptions(bytes, syncInterval, checkpointInterval, capacityKey, confirm);
  }
}

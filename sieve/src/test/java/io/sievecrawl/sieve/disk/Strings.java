package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.TaskCodec;
import io.sievecrawl.sieve.Ticker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/** A codec of URL strings and frontier openers for tests. */
final class Strings implements TaskCodec<String> {
  static final Strings CODEC = new Strings();

  @Override
  public byte[] encode(String task) {
    return task.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String decode(byte[] bytes, int offset, int length) {
    return new String(bytes, offset, length, StandardCharsets.UTF_8);
  }

  /** Options whose timers never fire during a test: tests call sync and checkpoint themselves. */
  static FrontierOptions quietOptions(long segmentBytes) {
    return new FrontierOptions(segmentBytes, Duration.ofHours(1), Duration.ofHours(1), "n", false, false, (n, p) -> {});
  }

  /** A frontier of one queue: tasks come out in the order they were admitted. */
  static DiskFrontier<String> open(Path dir, long segmentBytes) throws java.io.IOException {
    return DiskFrontier.open(dir, 100_000, 0.001, CODEC, s -> s, s -> "", quietOptions(segmentBytes), Ticker.SYSTEM);
  }

  /** A frontier with a queue per host, as a crawl's is per origin. */
  static DiskFrontier<String> openByHost(Path dir, long segmentBytes) throws java.io.IOException {
    return DiskFrontier.open(dir, 100_000, 0.001, CODEC, s -> s, Strings::host, quietOptions(segmentBytes),
        Ticker.SYSTEM);
  }

  /** A frontier with a queue per host whose filter, of capacity {@code n}, an exact store confirms. */
  static DiskFrontier<String> openConfirmedByHost(Path dir, long segmentBytes, long n) throws java.io.IOException {
    return DiskFrontier.open(dir, n, 0.001, CODEC, s -> s, Strings::host,
        quietOptions(segmentBytes).withConfirmation(true), Ticker.SYSTEM);
  }

  static String host(String url) {
    return url.substring(0, url.indexOf('/', url.indexOf("//") + 2));
  }

  static String url(int i) {
    return "https://host" + (i % 7) + ".example/page/" + i + "?q=" + (i * 31 % 1000);
  }
}

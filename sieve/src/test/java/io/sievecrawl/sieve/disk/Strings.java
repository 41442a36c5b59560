package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.TaskCodec;
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
    return new FrontierOptions(segmentBytes, Duration.ofHours(1), Duration.ofHours(1), "n");
  }

  static DiskFrontier<String> open(Path dir, long segmentBytes) throws java.io.IOException {
    return DiskFrontier.open(dir, 100_000, 0.001, CODEC, s -> s, quietOptions(segmentBytes));
  }

  static String url(int i) {
    return "https://host" + (i % 7) + ".example/page/" + i + "?q=" + (i * 31 % 1000);
  }
}

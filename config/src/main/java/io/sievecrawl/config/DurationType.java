package io.sievecrawl.config;

import java.time.Duration;
import java.util.Optional;

/** A duration with a unit: {@code 500ms}, {@code 10s}, {@code 2m}; its range is checked to the millisecond. */
record DurationType(Duration min, Duration max) implements ValueType<Duration> {

  @Override
  public Duration parse(String text) {
    return Values.parseDuration(text);
  }

  @Override
  public void check(Duration value) {
    long ms = value.toMillis();
    if (ms < min.toMillis() || ms > max.toMillis()) {
      throw new IllegalArgumentException(ValueChecks.range(Values.formatDuration(min), Values.formatDuration(max)));
    }
  }

  @Override
  public String format(Duration value) {
    return Values.formatDuration(value);
  }

  /** A duration as a config file writes it ({@code 2h}), not as {@link Duration#toString()} does ({@code PT2H}). */
  @Override
  public String textOf(Object value) {
    return value instanceof Duration d ? Values.formatDuration(d) : String.valueOf(value);
  }

  @Override
  public String description() {
    return "duration, e.g. 500ms, 10s, 2m";
  }

  @Override
  public Duration cast(Object value) {
    return ValueChecks.instance(value, Duration.class, this);
  }

  @Override
  public Optional<String> range() {
    return Optional.of(ValueChecks.span(Values.formatDuration(min), Values.formatDuration(max)));
  }

  @Override
  public Optional<Duration> largest() {
    return Optional.of(max);
  }
}

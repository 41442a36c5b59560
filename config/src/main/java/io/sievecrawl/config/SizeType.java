package io.sievecrawl.config;

import java.util.List;
import java.util.Optional;

/** A size in bytes: {@code 1048576}, {@code 512KB}, {@code 10MB}, {@code 1GiB}. */
record SizeType(long min, long max) implements ValueType<Long> {

  @Override
  public Long parse(String text) {
    return Values.parseSize(text);
  }

  @Override
  public void check(Long value) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(ValueChecks.range(Values.formatSize(min), Values.formatSize(max)));
    }
  }

  /** Rounded to two decimals of the largest unit: {@code 2.15GB}. */
  @Override
  public String format(Long value) {
    return Values.formatSize(value);
  }

  /** To the byte: {@code 2147483647}. */
  @Override
  public List<String> configValues(Long value, boolean hide) {
    return List.of(Values.formatSizeExact(value));
  }

  @Override
  public String description() {
    return "size, e.g. 512KB, 10MB";
  }

  @Override
  public Long cast(Object value) {
    return ValueChecks.instance(value, Long.class, this);
  }

  @Override
  public Optional<String> range() {
    return Optional.of(ValueChecks.span(Values.formatSize(min), Values.formatSize(max)));
  }

  @Override
  public Optional<Long> largest() {
    return Optional.of(max);
  }
}

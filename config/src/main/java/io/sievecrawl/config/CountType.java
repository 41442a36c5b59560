package io.sievecrawl.config;

import java.util.Optional;

/** A count: {@code 10000000}, {@code 10M}, {@code 1e7}; {@link Long#MAX_VALUE} as {@code max} is no upper bound. */
record CountType(long min, long max) implements ValueType<Long> {

  @Override
  public Long parse(String text) {
    return Values.parseCount(text);
  }

  @Override
  public void check(Long value) {
    ValueChecks.checkCount(value, min, max);
  }

  @Override
  public String format(Long value) {
    return Values.formatCount(value);
  }

  @Override
  public String description() {
    return "count, e.g. 10000000, 10M or 1e7";
  }

  @Override
  public Long cast(Object value) {
    return ValueChecks.instance(value, Long.class, this);
  }

  @Override
  public Optional<String> range() {
    return Optional.of(ValueChecks.countSpan(min, max));
  }

  @Override
  public Optional<Long> largest() {
    return Optional.of(max);
  }
}

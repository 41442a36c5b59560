package io.sievecrawl.config;

import java.util.Optional;

/** A whole number, written as a count is ({@code 10000}, {@code 10k}), within the range of an int. */
record IntType(int min, int max) implements ValueType<Integer> {

  /** Checks the range before narrowing, so that a number past an int is reported by its range. */
  @Override
  public Integer parse(String text) {
    long value = Values.parseCount(text);
    ValueChecks.checkCount(value, min, max);
    return Math.toIntExact(value);
  }

  @Override
  public void check(Integer value) {
    ValueChecks.checkCount(value, min, max);
  }

  @Override
  public String format(Integer value) {
    return String.valueOf(value);
  }

  @Override
  public String description() {
    return "whole number";
  }

  @Override
  public Integer cast(Object value) {
    return ValueChecks.instance(value, Integer.class, this);
  }

  @Override
  public Optional<String> range() {
    return Optional.of(ValueChecks.countSpan(min, max));
  }

  @Override
  public Optional<Integer> largest() {
    return Optional.of(max);
  }
}

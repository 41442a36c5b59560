package io.sievecrawl.config;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;

/** A rate: {@code 0.01}, {@code 1e-3} or {@code 1%}. */
record RateType(double min, double max) implements ValueType<Double> {

  @Override
  public Double parse(String text) {
    return Values.parseRate(text);
  }

  @Override
  public void check(Double value) {
    if (!(value >= min && value <= max)) {
      throw new IllegalArgumentException(ValueChecks.range(bound(min), bound(max)));
    }
  }

  /** A bound as written by hand: {@code 1e-10}, {@code 0.5}. */
  private static String bound(double v) {
    return BigDecimal.valueOf(v).stripTrailingZeros().toString().toLowerCase(Locale.ROOT);
  }

  @Override
  public String format(Double value) {
    return String.valueOf(value);
  }

  @Override
  public String description() {
    return "rate, e.g. 0.01 or 1%";
  }

  @Override
  public Double cast(Object value) {
    return ValueChecks.instance(value, Double.class, this);
  }

  @Override
  public Optional<String> range() {
    return Optional.of(ValueChecks.span(bound(min), bound(max)));
  }

  @Override
  public Optional<Double> largest() {
    return Optional.of(max);
  }
}

package io.sievecrawl.config;

import java.util.Locale;

/** A {@link RequisiteFetch} by its config name: {@code auto}, {@code on} or {@code off}. */
record RequisiteFetchType() implements ValueType<RequisiteFetch> {

  @Override
  public RequisiteFetch parse(String text) {
    try {
      return RequisiteFetch.valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("must be auto, on or off");
    }
  }

  @Override
  public void check(RequisiteFetch value) {
  }

  @Override
  public String format(RequisiteFetch value) {
    return value.configName();
  }

  @Override
  public String description() {
    return "auto, on or off";
  }

  @Override
  public RequisiteFetch cast(Object value) {
    return ValueChecks.instance(value, RequisiteFetch.class, this);
  }
}

package io.sievecrawl.config;

import java.util.Locale;

/** A {@link Scope} by its config name: {@code host}, {@code domain} or {@code any}. */
record ScopeType() implements ValueType<Scope> {

  @Override
  public Scope parse(String text) {
    try {
      return Scope.valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("must be host, domain or any");
    }
  }

  @Override
  public void check(Scope value) {
  }

  @Override
  public String format(Scope value) {
    return value.configName();
  }

  @Override
  public String description() {
    return "host, domain or any";
  }

  @Override
  public Scope cast(Object value) {
    return ValueChecks.instance(value, Scope.class, this);
  }
}

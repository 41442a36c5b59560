package io.sievecrawl.config;

import java.util.List;
import java.util.function.Consumer;

/**
 * Printable ASCII text, white space around it dropped; {@code required} text must not be empty, and {@code rule}
 * is a setting's own check of it (throwing {@link IllegalArgumentException} naming what the text must be).
 */
record TextType(boolean required, Consumer<String> rule) implements ValueType<String> {

  @Override
  public String parse(String text) {
    return text.trim();
  }

  @Override
  public void check(String value) {
    if (value.isEmpty() && required) {
      throw new IllegalArgumentException("must not be empty");
    }
    if (value.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
      throw new IllegalArgumentException("must be printable ASCII");
    }
    rule.accept(value);
  }

  @Override
  public String format(String value) {
    return value;
  }

  @Override
  public List<String> configValues(String value, boolean hide) {
    return ValueChecks.quoted(value);
  }

  @Override
  public String description() {
    return "text";
  }

  @Override
  public String cast(Object value) {
    return ValueChecks.instance(value, String.class, this);
  }
}

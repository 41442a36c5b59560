package io.sievecrawl.config;

/** {@code true} or {@code false} (also {@code yes}/{@code no}, {@code on}/{@code off}). */
record BooleanType() implements ValueType<Boolean> {

  @Override
  public Boolean parse(String text) {
    return Values.parseBoolean(text);
  }

  @Override
  public void check(Boolean value) {
  }

  @Override
  public String format(Boolean value) {
    return String.valueOf(value);
  }

  @Override
  public String description() {
    return "true or false";
  }

  @Override
  public Boolean cast(Object value) {
    return ValueChecks.instance(value, Boolean.class, this);
  }
}

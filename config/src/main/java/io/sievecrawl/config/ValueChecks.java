package io.sievecrawl.config;

import java.util.List;
import java.util.Locale;

/** What the value types share: range messages, type checks of values set in code, quoting. */
final class ValueChecks {
  private ValueChecks() {}

  /** {@code "must be between LOW and HIGH"}, or {@code "must be at least LOW"} when {@code high} is null. */
  static String range(String low, String high) {
    return high == null ? "must be at least " + low : "must be between " + low + " and " + high;
  }

  /** {@code "LOW to HIGH"}, or {@code "at least LOW"} when {@code high} is null: a range as the reference writes it. */
  static String span(String low, String high) {
    return high == null ? "at least " + low : low + " to " + high;
  }

  /** The range of a whole number from {@code min} to {@code max} ({@link Long#MAX_VALUE}: no bound), as written. */
  static String countSpan(long min, long max) {
    return span(count(min), max == Long.MAX_VALUE ? null : count(max));
  }

  /** Checks a whole number against {@code [min, max]}; a max of {@link Long#MAX_VALUE} is no bound. */
  static void checkCount(long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(range(count(min), max == Long.MAX_VALUE ? null : count(max)));
    }
  }

  /** A bound as a range message writes it: {@code 10,000}, {@code 1M}. */
  private static String count(long v) {
    return v >= 1_000_000 ? Values.formatCount(v) : String.format(Locale.ROOT, "%,d", v);
  }

  /** {@code value} as a {@code V}, or a problem naming what {@code type} takes. */
  static <V> V instance(Object value, Class<V> javaType, ValueType<?> type) {
    if (!javaType.isInstance(value)) {
      throw new IllegalArgumentException("must be a " + type.description());
    }
    return javaType.cast(value);
  }

  /**
   * {@code value} as a list of {@code E}; a problem naming what {@code type} takes when it is no list, {@code
   * notOfElements} when an element is of another type.
   */
  static <E> List<E> listOf(Object value, Class<E> element, ValueType<?> type, String notOfElements) {
    if (!(value instanceof List<?> list)) {
      throw new IllegalArgumentException("must be a " + type.description());
    }
    if (!list.stream().allMatch(element::isInstance)) {
      throw new IllegalArgumentException(notOfElements);
    }
    return list.stream().map(element::cast).toList();
  }

  /** {@code text} in double quotes, as a config file holds text: a '#' in it is then no comment. */
  static List<String> quoted(String text) {
    return List.of("\"" + text + "\"");
  }
}

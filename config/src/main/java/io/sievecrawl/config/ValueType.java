package io.sievecrawl.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The kind of value a {@link Setting} takes: how its text is parsed, how a value is written back, which values are
 * allowed, and how the kind is named in messages. Each setting has its own instance, which carries its range.
 *
 * @param <T> the Java type of the values
 */
public sealed interface ValueType<T>
    permits CountType, IntType, RateType, DurationType, SizeType, BooleanType, TextType, ScopeType, PatternsType,
        HeadersType, PinsType, RequisiteFetchType {

  /**
   * The value {@code text} gives, as a config file or the command line writes it; its range is checked by
   * {@link #check}.
   *
   * @throws IllegalArgumentException naming the form expected
   */
  T parse(String text);

  /**
   * Checks that {@code value} is allowed.
   *
   * @throws IllegalArgumentException naming the rule it breaks ({@code "must be between 1 and 10,000"})
   */
  void check(T value);

  /** The value as shown to people, in the units it is best read in: {@code 10M}, {@code 2.15GB}, {@code 2m}. */
  String format(T value);

  /**
   * The value as a config file holds it, exactly: one element per line of the file (more than one only for a
   * {@link #repeatable()} type), text in double quotes, sizes to the byte; credentials hidden when {@code hide}.
   */
  default List<String> configValues(T value, boolean hide) {
    return List.of(format(value));
  }

  /** The kind of value, for messages and documentation: {@code "duration, e.g. 500ms, 10s, 2m"}. */
  String description();

  /**
   * {@code value} as a value of this type.
   *
   * @throws IllegalArgumentException ({@code "must be a <description>"}) when it is not one
   */
  T cast(Object value);

  /** {@code value}, of this type or not, as a problem report shows a value set in code. */
  default String textOf(Object value) {
    return String.valueOf(value);
  }

  /**
   * Whether a key of this type may be given more than once, each time adding to its value (a list) rather than
   * replacing it; an empty value clears the list.
   */
  default boolean repeatable() {
    return false;
  }

  /**
   * The values allowed, as the reference writes them ({@code "1 to 100G"}, {@code "at least 0"}); empty for a type
   * whose {@link #description()} says it all.
   */
  default Optional<String> range() {
    return Optional.empty();
  }

  /** The largest value allowed, for a type with an upper bound. */
  default Optional<T> largest() {
    return Optional.empty();
  }

  /** A count ({@code 10M}, {@code 1e7}) from {@code min} to {@code max}; {@link Long#MAX_VALUE} is no bound. */
  static ValueType<Long> count(long min, long max) {
    return new CountType(min, max);
  }

  /** A whole number from {@code min} to {@code max}. */
  static ValueType<Integer> integer(int min, int max) {
    return new IntType(min, max);
  }

  /** A rate ({@code 0.01}, {@code 1%}) from {@code min} to {@code max}. */
  static ValueType<Double> rate(double min, double max) {
    return new RateType(min, max);
  }

  /** A duration ({@code 500ms}, {@code 2m}) from {@code min} to {@code max}, compared to the millisecond. */
  static ValueType<Duration> duration(Duration min, Duration max) {
    return new DurationType(min, max);
  }

  /** A size in bytes ({@code 512KB}, {@code 10MB}) from {@code min} to {@code max}. */
  static ValueType<Long> size(long min, long max) {
    return new SizeType(min, max);
  }

  static ValueType<Boolean> bool() {
    return new BooleanType();
  }

  /** Printable ASCII text, possibly empty. */
  static ValueType<String> text() {
    return new TextType(false, s -> { });
  }

  /** Printable ASCII text that must not be empty. */
  static ValueType<String> requiredText() {
    return new TextType(true, s -> { });
  }

  /**
   * Printable ASCII text, which must not be empty when {@code required}, that also keeps {@code rule}: a check that
   * throws {@link IllegalArgumentException} naming what the text must be.
   */
  static ValueType<String> text(boolean required, Consumer<String> rule) {
    return new TextType(required, rule);
  }

  static ValueType<Scope> scope() {
    return new ScopeType();
  }

  static ValueType<RequisiteFetch> requisiteFetch() {
    return new RequisiteFetchType();
  }

  static ValueType<List<Pattern>> patterns() {
    return new PatternsType();
  }

  static ValueType<List<RequestHeader>> headers() {
    return new HeadersType();
  }

  static ValueType<List<HostPin>> pins() {
    return new PinsType();
  }
}

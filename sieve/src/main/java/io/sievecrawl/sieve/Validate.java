package io.sievecrawl.sieve;

/** Argument checks whose messages name the value and the rule. */
final class Validate {
  private Validate() {}

  static void isTrue(boolean condition, String messageFormat, Object... args) {
    if (!condition) {
      throw new IllegalArgumentException(String.format(messageFormat, args));
    }
  }
}

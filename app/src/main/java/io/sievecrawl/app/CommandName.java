package io.sievecrawl.app;

/**
 * The command as the user typed it ({@code sievecrawl}, {@code app/target/sievecrawl}, {@code ./sc}), which the
 * launcher passes in {@code SIEVECRAWL_COMMAND}, so that hints print a command the user can paste.
 */
final class CommandName {
  private static final String TYPED = typed(System.getenv("SIEVECRAWL_COMMAND"));

  private CommandName() {}

  /** The command as typed, or {@code sievecrawl} when not run by the launcher. */
  static String get() {
    return TYPED;
  }

  /** {@code message} with its {@code 'sievecrawl ...'} hints in the form the user typed. */
  static String inHints(String message) {
    return TYPED.equals("sievecrawl") ? message : message.replace("'sievecrawl ", "'" + TYPED + " ");
  }

  static String typed(String fromLauncher) {
    if (fromLauncher == null || fromLauncher.isBlank() || fromLauncher.chars().anyMatch(Character::isISOControl)) {
      return "sievecrawl";
    }
    return fromLauncher.indexOf(' ') >= 0 ? "'" + fromLauncher.replace("'", "'\\''") + "'" : fromLauncher;
  }
}

package io.sievecrawl.app;

/** A problem the user can fix, reported as one line (or one line per problem) and an exit code; no stack trace. */
final class UserError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  UserError(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}

package io.sievecrawl.config;

import java.util.List;
import java.util.stream.Collectors;

/** Settings that cannot be used; {@link #problems()} lists every problem found, not just the first. */
public final class SettingsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient List<Problem> problems;

  public SettingsException(List<Problem> problems) {
    super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  /** Every problem found, in the order of the settings. */
  public List<Problem> problems() {
    return problems;
  }
}

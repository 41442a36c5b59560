package io.sievecrawl.config;

/**
 * One thing wrong with the settings.
 *
 * @param origin where the value came from ({@code "crawl.conf:12"}, {@code "--delay"}), or empty when built in code
 * @param key the setting's name, as in the config file ({@code politeness.delay})
 * @param value the value as given, or {@code null} for a problem with the line itself (a syntax error)
 * @param rule what the value must be ({@code "must be between 1 and 10000"})
 */
public record Problem(String origin, String key, String value, String rule) {

  /** {@code crawl.conf:12: politeness.delay = -1s: must be at least 0ms}. */
  @Override
  public String toString() {
    String where = origin.isEmpty() ? "" : origin + ": ";
    return where + (value == null ? key : key + " = " + value) + ": " + rule;
  }
}

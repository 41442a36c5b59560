package io.sievecrawl.config;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/** Space-separated regular expressions; empty for none. */
record PatternsType() implements ValueType<List<Pattern>> {

  @Override
  public List<Pattern> parse(String text) {
    String t = text.trim();
    if (t.isEmpty()) {
      return List.of();
    }
    return Arrays.stream(t.split("\\s+")).map(regex -> {
      try {
        return Pattern.compile(regex);
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException("invalid regular expression '" + regex + "': " + e.getDescription());
      }
    }).toList();
  }

  @Override
  public void check(List<Pattern> value) {
  }

  @Override
  public String format(List<Pattern> value) {
    return value.stream().map(Pattern::toString).collect(Collectors.joining(" "));
  }

  @Override
  public List<String> configValues(List<Pattern> value, boolean hide) {
    return ValueChecks.quoted(format(value));
  }

  @Override
  public String description() {
    return "space-separated regular expressions";
  }

  @Override
  public List<Pattern> cast(Object value) {
    return ValueChecks.listOf(value, Pattern.class, this, "must be a list of regular expressions");
  }
}

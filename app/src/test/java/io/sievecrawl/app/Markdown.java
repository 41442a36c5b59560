package io.sievecrawl.app;

import java.util.List;
import java.util.Locale;

/** The bits of GitHub Markdown the generated reference is written in: escaped text, code spans, table rows. */
final class Markdown {
  private Markdown() {}

  /**
   * {@code text} as Markdown text that shows as written: no emphasis from a lone {@code *}, no strike-through from
   * {@code ~}, no HTML from {@code <meta ...>}, no column break from a {@code |} in a table cell.
   */
  static String text(String text) {
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\', '*', '|', '`', '~' -> out.append('\\').append(c);
        case '<' -> out.append("&lt;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** {@code text} as a code span that may stand in a table cell ({@code |} escaped, as GitHub's tables want). */
  static String code(String text) {
    return "`" + text.replace("|", "\\|") + "`";
  }

  /** One row of a table. */
  static String row(List<String> cells) {
    return "| " + String.join(" | ", cells) + " |\n";
  }

  /** A table's header row and the line under it. */
  static String header(String... titles) {
    return row(List.of(titles)) + "|" + "---|".repeat(titles.length) + "\n";
  }

  /** The anchor GitHub gives a heading: lower case, spaces to dashes, other punctuation dropped. */
  static String anchor(String heading) {
    StringBuilder out = new StringBuilder();
    for (char c : heading.toLowerCase(Locale.ROOT).toCharArray()) {
      if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
        out.append(c);
      } else if (c == ' ') {
        out.append('-');
      }
    }
    return out.toString();
  }
}

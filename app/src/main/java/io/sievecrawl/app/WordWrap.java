package io.sievecrawl.app;

import java.util.ArrayList;
import java.util.List;

/** Wraps text at spaces to a width; continuation lines are indented a little deeper than the line they continue. */
final class WordWrap {
  private static final int CONTINUATION_INDENT = 4;

  private WordWrap() {}

  /** {@code text}'s lines, each wrapped to at most {@code width} characters where its words allow. */
  static List<String> wrap(String text, int width) {
    List<String> out = new ArrayList<>();
    text.lines().forEach(line -> wrapLine(line.stripTrailing(), width, out));
    return out;
  }

  private static void wrapLine(String line, int width, List<String> out) {
    int indent = line.length() - line.stripLeading().length();
    String continuation = " ".repeat(Math.min(indent + CONTINUATION_INDENT, width / 2));
    String prefix = "";
    String rest = line;
    while (prefix.length() + rest.length() > width) {
      int contentFrom = prefix.isEmpty() ? indent : 0; // never break inside the line's own indent
      int cut = rest.lastIndexOf(' ', width - prefix.length());
      if (cut <= contentFrom) {
        // A word longer than the line (a long URL) goes whole on a line of its own: the terminal folds it, and it
        // stays one piece to copy.
        cut = rest.indexOf(' ', width - prefix.length());
        if (cut < 0) {
          break;
        }
      }
      out.add(prefix + rest.substring(0, cut).stripTrailing());
      rest = rest.substring(cut).stripLeading();
      prefix = continuation;
    }
    out.add(prefix + rest);
  }
}

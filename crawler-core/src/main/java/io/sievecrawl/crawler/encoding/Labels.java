package io.sievecrawl.crawler.encoding;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Encoding Standard's table of labels, from the pinned copy of its {@code encodings.json}: 228 labels of 40
 * encodings.
 */
final class Labels {
  private static final String RESOURCE = "encodings.json";
  /** Encoding name by label, in the file's order. */
  private static final Map<String, String> NAMES = read();

  private Labels() {}

  /**
   * The name of the encoding {@code label} names, as "get an encoding" reads a label: ASCII white space around it
   * removed, ASCII case ignored; {@code null} if it names none.
   */
  static String nameOf(String label) {
    int start = 0;
    int end = label.length();
    while (start < end && isAsciiWhitespace(label.charAt(start))) {
      start++;
    }
    while (end > start && isAsciiWhitespace(label.charAt(end - 1))) {
      end--;
    }
    if (end - start > 20) { // longer than any label: no need to lower-case a hostile header
      return null;
    }
    StringBuilder lower = new StringBuilder(end - start);
    for (int i = start; i < end; i++) {
      char c = label.charAt(i);
      lower.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
    }
    return NAMES.get(lower.toString());
  }

  /** Every label, each with its encoding's name. */
  static Map<String, String> all() {
    return NAMES;
  }

  /** The encodings' names, in the file's order. */
  static List<String> names() {
    return NAMES.values().stream().distinct().toList();
  }

  private static boolean isAsciiWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
  }

  /**
   * {@code [{"encodings": [{"labels": [...], "name": "..."}, ...], "heading": "..."}, ...]}, read by a scanner of its
   * strings rather than a JSON parser: every crawl reads this at its start, and Jackson's parser takes some 20 ms to
   * start up (its classes, and BigDecimal's, whose initializer is slow). The file has no escapes in its strings.
   */
  private static Map<String, String> read() {
    String text;
    try (InputStream in = Labels.class.getResourceAsStream(RESOURCE)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    Map<String, String> names = new LinkedHashMap<>();
    List<String> labels = new ArrayList<>();
    String field = null;
    String name = null;
    boolean inLabels = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        int end = text.indexOf('"', i + 1);
        String string = text.substring(i + 1, end);
        if (string.indexOf('\\') >= 0) {
          throw new IllegalStateException(RESOURCE + ": an escape in " + string + ", which this reader does not read");
        }
        i = end;
        if (nextNonBlank(text, end + 1) == ':') {
          field = string;
        } else if (inLabels) {
          labels.add(string);
        } else if ("name".equals(field)) {
          name = string;
        }
      } else if (c == '[') {
        inLabels = "labels".equals(field);
      } else if (c == ']') {
        inLabels = false;
      } else if (c == '}' && name != null) {
        for (String label : labels) {
          names.put(label, name);
        }
        labels.clear();
        name = null;
      }
    }
    return Collections.unmodifiableMap(names);
  }

  private static char nextNonBlank(String text, int from) {
    for (int i = from; i < text.length(); i++) {
      if (!Character.isWhitespace(text.charAt(i))) {
        return text.charAt(i);
      }
    }
    return 0;
  }
}

package io.sievecrawl.crawler.encoding;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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

  /** {@code [{"encodings": [{"labels": [...], "name": "..."}, ...], "heading": "..."}, ...]} */
  private static Map<String, String> read() {
    Map<String, String> names = new LinkedHashMap<>();
    try (InputStream in = Labels.class.getResourceAsStream(RESOURCE);
        JsonParser json = new JsonFactory().createParser(in)) {
      List<String> labels = new java.util.ArrayList<>();
      String name = null;
      for (JsonToken token = json.nextToken(); token != null; token = json.nextToken()) {
        if (token == JsonToken.FIELD_NAME && json.currentName().equals("labels")) {
          json.nextToken();
          while (json.nextToken() == JsonToken.VALUE_STRING) {
            labels.add(json.getText());
          }
        } else if (token == JsonToken.FIELD_NAME && json.currentName().equals("name")) {
          name = json.nextTextValue();
        } else if (token == JsonToken.END_OBJECT && name != null) {
          for (String label : labels) {
            names.put(label, name);
          }
          labels.clear();
          name = null;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    return java.util.Collections.unmodifiableMap(names);
  }
}

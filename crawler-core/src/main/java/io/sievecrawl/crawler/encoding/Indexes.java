package io.sievecrawl.crawler.encoding;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Encoding Standard's index tables, read on first use from the pinned copy of its {@code indexes.json} (a
 * resource of this package; see package-info for where it comes from), each once: a crawl of UTF-8 pages reads none.
 */
final class Indexes {
  /** What an index holds at a pointer it has no code point for. */
  static final int NONE = -1;

  private static final String RESOURCE = "indexes.json";
  private static final Map<String, int[]> LOADED = new ConcurrentHashMap<>();

  private Indexes() {}

  /** The index {@code name} ({@code jis0208}, {@code windows-1252}, ...): code points by pointer, {@link #NONE} for null. */
  static int[] get(String name) {
    return LOADED.computeIfAbsent(name, Indexes::load);
  }

  /**
   * The gb18030 ranges index as pairs of (pointer, code point), in the order of both: indexes.json writes it as
   * {@code [[pointer, codePoint], ...]}.
   */
  static int[] gb18030Ranges() {
    return get("gb18030-ranges");
  }

  private static int[] load(String name) {
    try (InputStream in = Indexes.class.getResourceAsStream(RESOURCE);
        JsonParser json = new JsonFactory().createParser(in)) {
      if (json.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalStateException(RESOURCE + " is not a JSON object");
      }
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String key = json.currentName();
        json.nextToken();
        if (key.equals(name)) {
          return readArray(json);
        }
        json.skipChildren();
      }
      throw new IllegalStateException(RESOURCE + " has no index " + name);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  /** A flat array of the numbers of a JSON array, nested arrays flattened, null as {@link #NONE}. */
  private static int[] readArray(JsonParser json) throws IOException {
    int[] values = new int[1024];
    int n = 0;
    int depth = 1;
    while (depth > 0) {
      JsonToken token = json.nextToken();
      switch (token) {
        case START_ARRAY -> depth++;
        case END_ARRAY -> depth--;
        case VALUE_NULL, VALUE_NUMBER_INT -> {
          if (n == values.length) {
            values = Arrays.copyOf(values, n * 2);
          }
          values[n++] = token == JsonToken.VALUE_NULL ? NONE : json.getIntValue();
        }
        default -> throw new IllegalStateException(RESOURCE + ": unexpected " + token);
      }
    }
    return Arrays.copyOf(values, n);
  }
}

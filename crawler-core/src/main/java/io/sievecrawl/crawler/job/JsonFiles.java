package io.sievecrawl.crawler.job;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;

/**
 * The JSON files of a crawl directory (the manifest, the state): written field by field through Jackson's streaming
 * generator, indented as Jackson's {@code ObjectMapper} indents them (byte for byte the files it wrote before), and
 * read by an {@code ObjectMapper} made at the first read.
 */
final class JsonFiles {
  /*
   * Why they are not written by the ObjectMapper that reads them: its class initialization (date formats, time zones,
   * locale data) and its first serialization of a record (introspection, a method handle spun for each accessor)
   * were some 50 ms of CPU on the main thread at every crawl's start, before its first request, for two small files.
   * A new crawl never reads them back (StateFiles keeps what it wrote); a crawl resumed does, and the ObjectMapper's
   * errors say where a damaged file is wrong.
   */
  private static final JsonFactory JSON = new JsonFactory();

  /** What writes the fields of one JSON object. */
  @FunctionalInterface
  interface Fields {
    void write(JsonGenerator json) throws IOException;
  }

  private JsonFiles() {}

  /** The reader of these files, made at the first read (lenient: fields it does not know are ignored). */
  static ObjectMapper reader() {
    return Reader.JSON;
  }

  private static final class Reader {
    static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  }

  /** One JSON object holding what {@code fields} writes, indented two spaces a level, with no newline at its end. */
  static byte[] object(Fields fields) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
    try (JsonGenerator json = JSON.createGenerator(bytes)) {
      json.useDefaultPrettyPrinter();
      json.writeStartObject();
      fields.write(json);
      json.writeEndObject();
    }
    return bytes.toByteArray();
  }

  /** A field holding {@code counts} as an object of numbers, or null. */
  static void counts(JsonGenerator json, String name, Map<String, Long> counts) throws IOException {
    if (counts == null) {
      json.writeNullField(name);
      return;
    }
    json.writeObjectFieldStart(name);
    for (Map.Entry<String, Long> count : counts.entrySet()) {
      json.writeNumberField(count.getKey(), count.getValue());
    }
    json.writeEndObject();
  }

  /** A field holding {@code strings} as an array, or null. */
  static void strings(JsonGenerator json, String name, Collection<String> strings) throws IOException {
    if (strings == null) {
      json.writeNullField(name);
      return;
    }
    json.writeArrayFieldStart(name);
    for (String s : strings) {
      json.writeString(s);
    }
    json.writeEndArray();
  }
}

package io.sievecrawl.crawler.encoding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.GZIPInputStream;

/** The Chromium expectations in src/test/resources/encoding (made by generate.mjs there; see its README). */
public final class ChromiumTables {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ChromiumTables() {}

  /** The rows of {@code encoding/NAME.jsonl.gz}. */
  public static List<JsonNode> rows(String name) {
    List<JsonNode> rows = new ArrayList<>();
    try (InputStream in = ChromiumTables.class.getResourceAsStream("/encoding/" + name + ".jsonl.gz");
        BufferedReader lines = new BufferedReader(
            new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        rows.add(JSON.readTree(line));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /** The document {@code encoding/NAME.json}. */
  public static JsonNode document(String name) {
    try (InputStream in = ChromiumTables.class.getResourceAsStream("/encoding/" + name + ".json")) {
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static byte[] hex(String hex) {
    return HexFormat.of().parseHex(hex);
  }
}

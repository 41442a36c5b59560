package io.sievecrawl.crawler.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The manifest and the state are written as Jackson's ObjectMapper wrote them, and read back the same. */
class JsonFilesTest {
  /** How the files were written before: the records serialized by an indenting ObjectMapper. */
  private static final ObjectMapper BEFORE = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Test
  void aManifestIsWrittenByteForByteAsTheObjectMapperWroteItAndReadsBackEqual() throws IOException {
    List<Manifest> manifests = List.of(
        new Manifest("sievecrawl-crawl", 3, "RUNNING", "/tmp/out.jsonl", 10_000_000, 0.001,
            "2026-11-29T01:40:26.051359952Z", "2026-11-29T01:40:27.126487408Z", 1, false, true, 0, null, 0),
        new Manifest("sievecrawl-crawl", 2, "COMPLETED", "-", 1L << 40, 1e-9, "a", "b", 12, true, false, 3,
            "2026-11-28T00:00:00Z", 2),
        new Manifest("sievecrawl-crawl", 3, "STOPPED", "C:\\crawl \"quoted\"\n\u00e9\u4e2d\ud83d\ude00\u0001", 1,
            0.5, "", "", 0, false, false, 0, null, 0));
    for (Manifest manifest : manifests) {
      byte[] written = manifest.toJson();
      assertEquals(new String(BEFORE.writeValueAsBytes(manifest), StandardCharsets.UTF_8),
          new String(written, StandardCharsets.UTF_8));
      assertEquals(manifest, JsonFiles.reader().readValue(written, Manifest.class));
    }
  }

  @Test
  void aStateIsWrittenByteForByteAsTheObjectMapperWroteItAndReadsBackEqual() throws IOException {
    Map<String, Long> statuses = new LinkedHashMap<>();
    statuses.put("2xx", 61L);
    statuses.put("4xx", 1L);
    Set<String> sites = new LinkedHashSet<>(List.of("127.0.0.1:27142", "example.com", "b\u00fccher.example"));
    List<StateFiles.StateFile> states = List.of(
        new StateFiles.StateFile(0, 0, 0, 0, Map.of(), Map.of(), Map.of(), Map.of(), 0, 0, Set.of()),
        new StateFiles.StateFile(3, 62, 413_002, 2, statuses, Map.of("timeout", 2L), Map.of("robots", 7L),
            Map.of("out of scope", Long.MAX_VALUE), 64, 1_234, sites),
        new StateFiles.StateFile(1, 1, 1, 0, null, null, null, null, 1, 1, null));
    for (StateFiles.StateFile state : states) {
      byte[] written = state.toJson();
      assertEquals(new String(BEFORE.writeValueAsBytes(state), StandardCharsets.UTF_8),
          new String(written, StandardCharsets.UTF_8));
      assertEquals(state, JsonFiles.reader().readValue(written, StateFiles.StateFile.class));
    }
  }
}

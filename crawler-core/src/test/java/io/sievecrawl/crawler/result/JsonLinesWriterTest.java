package io.sievecrawl.crawler.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonLinesWriterTest {

  @Test
  void writesOneObjectPerLineWithEveryFieldInTheDocumentedOrder() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonLinesWriter writer = new JsonLinesWriter(out, true)) {
      writer.accept(new CrawlResult("https://example.com/\"quoted\"\u2028", 200, "text/html", "A page", 5120, true, 0,
          null, Instant.parse("2026-11-21T05:00:00.123Z"), 42, 17, null, null, null, 1));
      writer.accept(new CrawlResult("https://example.com/gone", null, null, null, 0, false, 1, "https://example.com/",
          Instant.parse("2026-11-21T05:00:01Z"), 3000, 0, null, ErrorKind.TIMEOUT, "SocketTimeoutException: timeout", 3));
      writer.accept(new CrawlResult("https://example.com/same", 304, null, null, 0, false, 1, null,
          Instant.parse("2026-11-22T05:00:01Z"), 3, 0, null, null, null, 1, null, null, new CrawlResult.Capture(
              "\"5f-1a\"", null, "sha1:ABCD", CrawlResult.Capture.SERVER_NOT_MODIFIED,
              Instant.parse("2026-11-21T05:00:01.250Z"))));
    }
    String text = out.toString(StandardCharsets.UTF_8);
    List<String> lines = text.lines().toList();
    assertEquals(3, lines.size());
    assertEquals("{\"url\":\"https://example.com/\\\"quoted\\\"\u2028\",\"status\":200,\"contentType\":\"text/html\","
        + "\"title\":\"A page\",\"bytes\":5120,\"truncated\":true,\"depth\":0,\"referrer\":null,\"requisite\":false,\"fetchedAt\":\"2026-11-21T05:00:00.123Z\",\"fetchMillis\":42,"
        + "\"outlinks\":17,\"redirectTo\":null,\"errorKind\":null,\"error\":null,\"attempts\":1,\"etag\":null,"
        + "\"lastModified\":null,\"payloadDigest\":null,\"revisit\":null,\"capturedAt\":null,\"capturedUrl\":null}", lines.get(0));
    JsonNode second = new ObjectMapper().readTree(lines.get(1));
    assertEquals("TIMEOUT", second.get("errorKind").asText());
    assertEquals(true, second.get("status").isNull());
    JsonNode revisit = new ObjectMapper().readTree(lines.get(2));
    assertEquals("\"5f-1a\"", revisit.get("etag").asText());
    assertEquals("server-not-modified", revisit.get("revisit").asText());
    assertEquals("2026-11-21T05:00:01.250Z", revisit.get("capturedAt").asText());
    assertEquals(false, revisit.get("requisite").asBoolean());
    assertEquals('\n', text.charAt(text.length() - 1));
  }

  @Test
  void anEmptyCrawlWritesNothing() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new JsonLinesWriter(out, true).close();
    assertEquals(0, out.size());
  }
}

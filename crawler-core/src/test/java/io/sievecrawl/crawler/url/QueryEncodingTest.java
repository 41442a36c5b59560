package io.sievecrawl.crawler.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sievecrawl.crawler.encoding.ChromiumTables;
import io.sievecrawl.crawler.encoding.WebEncoding;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A link's query is encoded in its page's encoding as Chromium encodes it, for every encoding of the standard: the
 * code points of each index, characters an encoding lacks (sent as {@code &#NNNN;}), and ISO-2022-JP's runs. The
 * expected query is Chromium's, put in the crawler's canonical form (where Chromium leaves a {@code \} raw, it is
 * {@code %5C}).
 */
class QueryEncodingTest {
  private final UrlNormalizer normalizer = new UrlNormalizer(2048, true);

  @Test
  void queriesAreEncodedInTheDocumentsEncodingAsChromiumEncodesThem() throws InvalidUrlException {
    List<String> failures = new ArrayList<>();
    List<JsonNode> rows = ChromiumTables.rows("queries");
    for (JsonNode row : rows) {
      WebEncoding encoding = WebEncoding.forLabel(row.get("name").asText());
      String text = row.get("text").asText();
      String expected = normalizer.normalize("http://example.test/?" + row.get("query").asText());
      Url actual = normalizer.resolverFor("http://example.test/", encoding).resolveOrNull("?" + text);
      if (actual == null || !expected.equals(actual.toString())) {
        failures.add(encoding + " " + text.codePoints().mapToObj(c -> String.format("U+%04X", c)).toList()
            + ": expected " + expected + ", got " + actual);
      }
    }
    assertEquals(List.of(), failures);
    assertTrue(rows.size() > 7000, "rows: " + rows.size());
  }
}

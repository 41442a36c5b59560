package io.sievecrawl.crawler.url;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The URL standard's own test data (web-platform-tests' {@code urltestdata.json} and {@code IdnaTestV2.json}, in
 * {@code src/test/resources/wpt}): every case whose input or expected URL is http(s) is resolved by the crawler and
 * falls in one class.
 *
 * <ul>
 *   <li>same: the crawler's URL is the browsers' URL in the crawler's canonical form (the normalizer applied to the
 *       expected URL gives the same string), or both refuse it;
 *   <li>refused: browsers accept it and the crawler refuses it, for one of the reasons app/docs/links.md gives;
 *   <li>accepted (browsers refuse it), different (both accept it, the URLs differ even in canonical form) or
 *       refused for another reason: a failure.
 * </ul>
 *
 * <p>Each case not the same is listed in {@code target/whatwg-test-data.txt}, with the crawler's reason.
 */
class WhatwgTestDataTest {
  private static final UrlNormalizer NORMALIZER = new UrlNormalizer(100_000, false);

  private final Map<String, Integer> counts = new TreeMap<>();
  private final List<String> failures = new ArrayList<>();
  private final List<String> listing = new ArrayList<>();

  @Test
  void everyHttpCaseIsReadAsBrowsersReadItOrRefusedForADocumentedReason() throws IOException {
    for (JsonNode test : read("/wpt/urltestdata.json")) {
      if (test.isObject()) {
        urlCase(test);
      }
    }
    Map<String, Integer> urlCounts = new TreeMap<>(counts);
    counts.clear();
    for (JsonNode test : read("/wpt/IdnaTestV2.json")) {
      if (test.isObject()) {
        hostCase(test);
      }
    }
    listing.add(0, "urltestdata " + urlCounts + ", IdnaTestV2 " + counts);
    Files.createDirectories(Path.of("target"));
    Files.write(Path.of("target", "whatwg-test-data.txt"), listing, StandardCharsets.UTF_8);

    assertTrue(failures.isEmpty(), failures.size() + " cases differ from browsers:\n" + String.join("\n", failures));
    assertTrue(urlCounts.getOrDefault("same", 0) >= 400, "too few URL cases ran: " + urlCounts);
    assertTrue(counts.getOrDefault("same", 0) >= 2000, "too few host cases ran: " + counts);
  }

  private static JsonNode read(String resource) throws IOException {
    try (InputStream in = WhatwgTestDataTest.class.getResourceAsStream(resource)) {
      return new ObjectMapper().readTree(in);
    }
  }

  private void urlCase(JsonNode test) {
    String input = test.get("input").asText();
    String base = test.hasNonNull("base") ? test.get("base").asText() : null;
    String expected = test.path("failure").asBoolean(false) ? null : test.get("href").asText();
    boolean httpBase = isHttp(base);
    if (!(isHttp(expected) || (expected == null && (httpBase || isHttp(input.strip()))))) {
      return; // neither side is about http(s)
    }
    Outcome ours = httpBase ? resolve(base, input) : normalize(input);
    classify(ours, expected, "input " + quote(input) + (base == null ? "" : " base " + quote(base)));
  }

  private void hostCase(JsonNode test) {
    String input = test.get("input").asText();
    JsonNode output = test.get("output");
    String expected = output == null || output.isNull() ? null : "https://" + output.asText() + "/x";
    String comment = test.hasNonNull("comment") ? " (" + test.get("comment").asText() + ")" : "";
    classify(normalize("https://" + input + "/x"), expected, "host " + quote(input) + comment);
  }

  private void classify(Outcome ours, String expected, String label) {
    String kind;
    String detail;
    if (expected == null || !isHttp(expected)) {
      kind = ours.url == null ? "same" : "accepted";
      detail = "browsers " + (expected == null ? "refuse" : expected) + "; crawler " + ours.url;
    } else if (ours.url == null) {
      kind = isDocumented(ours.reason) ? "refused" : "refused for an undocumented reason";
      detail = "browsers " + expected + "; crawler refuses: " + ours.reason;
    } else {
      Outcome canonical = normalize(expected);
      kind = ours.url.equals(canonical.url) ? "same" : "different";
      detail = "browsers " + expected + " (canonical " + canonical.url + "); crawler " + ours.url;
    }
    counts.merge(kind, 1, Integer::sum);
    if (!kind.equals("same")) {
      String line = kind.toUpperCase(Locale.ROOT) + " " + label + ": " + detail;
      listing.add(line);
      if (!kind.equals("refused")) {
        failures.add(line);
      }
    }
  }

  /**
   * Whether a refusal is one app/docs/links.md ("Links: read as browsers read them") gives: port 0, a host that is
   * no DNS name, or one the HTTP client would read as another.
   */
  private static boolean isDocumented(String reason) {
    return reason.equals("invalid port '0'") || (reason.startsWith("host '")
        && (reason.contains("is not a DNS name") || reason.contains("cannot be fetched")));
  }

  private record Outcome(String url, String reason) {}

  private static Outcome normalize(String url) {
    try {
      return new Outcome(NORMALIZER.normalize(url), null);
    } catch (InvalidUrlException e) {
      return new Outcome(null, e.getMessage());
    }
  }

  private static Outcome resolve(String base, String reference) {
    try {
      return new Outcome(NORMALIZER.resolve(base, reference), null);
    } catch (InvalidUrlException e) {
      return new Outcome(null, e.getMessage());
    }
  }

  private static boolean isHttp(String url) {
    if (url == null) {
      return false;
    }
    String lower = url.toLowerCase(Locale.ROOT);
    return lower.startsWith("http:") || lower.startsWith("https:");
  }

  /** The string with its control and non-letter non-ASCII characters written as \\uXXXX. */
  private static String quote(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && !Character.isLetter(c))) {
        out.append(String.format("\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}

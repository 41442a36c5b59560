package io.sievecrawl.crawler.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sievecrawl.crawler.url.InvalidUrlException;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compares {@link UrlNormalizer} with the WHATWG URL standard's own test data, as web-platform-tests keeps it
 * ({@code url/resources/urltestdata.json} and {@code url/resources/IdnaTestV2.json}; not kept in this repository):
 * every case whose input or expected URL is http(s) is resolved both ways, and each one falls in one class.
 *
 * <ul>
 *   <li>{@code same}: the crawler's URL is the browsers' URL in the crawler's canonical form (the normalizer
 *       applied to the expected URL gives the same string), or both refuse it;
 *   <li>{@code refused}: browsers accept it, the crawler refuses it; the reason is printed and must be one the
 *       README gives;
 *   <li>{@code accepted}: browsers refuse it, the crawler accepts it;
 *   <li>{@code different}: both accept it and the URLs differ, even in canonical form.
 * </ul>
 *
 * <p>Run: {@code mvn -q -B -pl crawler-core -am -Pjmh-crawler process-test-classes
 * -Djmh.main=io.sievecrawl.crawler.jmh.UrlConformanceReport -Djmh.args="urltestdata.json IdnaTestV2.json"}.
 * Every case not {@code same} is listed; exit code 1 if any is {@code accepted} or {@code different}.
 */
public final class UrlConformanceReport {
  private static final UrlNormalizer NORMALIZER = new UrlNormalizer(100_000, false);

  private final Map<String, Integer> counts = new TreeMap<>();
  private final List<String> lines = new ArrayList<>();

  private UrlConformanceReport() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: UrlConformanceReport URLTESTDATA_JSON IDNATESTV2_JSON");
      System.exit(2);
    }
    ObjectMapper json = new ObjectMapper();
    UrlConformanceReport urls = new UrlConformanceReport();
    for (JsonNode test : json.readTree(Path.of(args[0]).toFile())) {
      if (test.isObject()) {
        urls.urlCase(test);
      }
    }
    UrlConformanceReport hosts = new UrlConformanceReport();
    for (JsonNode test : json.readTree(Path.of(args[1]).toFile())) {
      if (test.isObject()) {
        hosts.hostCase(test);
      }
    }
    boolean failed = urls.print("urltestdata") | hosts.print("IdnaTestV2");
    System.exit(failed ? 1 : 0);
  }

  private void urlCase(JsonNode test) {
    String input = test.get("input").asText();
    String base = test.hasNonNull("base") ? test.get("base").asText() : null;
    String expected = test.path("failure").asBoolean(false) ? null : test.get("href").asText();
    boolean httpBase = base != null && isHttp(base);
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
    if (expected == null) {
      kind = ours.url == null ? "same" : "accepted";
      detail = "browsers refuse; crawler " + ours.url;
    } else if (!isHttp(expected)) {
      kind = ours.url == null ? "same" : "accepted";
      detail = "browsers " + expected + "; crawler " + ours.url;
    } else {
      Outcome canonical = normalize(expected);
      if (ours.url == null) {
        kind = "refused";
        detail = "browsers " + expected + "; crawler refuses: " + ours.reason;
      } else {
        kind = ours.url.equals(canonical.url) ? "same" : "different";
        detail = "browsers " + expected + " (canonical " + canonical.url + "); crawler " + ours.url;
      }
    }
    counts.merge(kind, 1, Integer::sum);
    if (!kind.equals("same")) {
      lines.add(kind.toUpperCase(Locale.ROOT) + " " + label + ": " + detail);
    }
  }

  private boolean print(String title) {
    System.out.println("== " + title + " " + counts);
    lines.forEach(System.out::println);
    return counts.containsKey("accepted") || counts.containsKey("different");
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

  /** The string with its control and non-ASCII characters written as \\uXXXX, so that the report is readable. */
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

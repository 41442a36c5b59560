package io.sievecrawl.crawler.html;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.sievecrawl.crawler.encoding.ChromiumTables;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Sample pages read as Chromium reads them (src/test/resources/encoding/documents.json): the encoding it picks
 * (header, byte-order mark, XML declaration, a meta anywhere in the head or within 1,024 bytes past it, else
 * windows-1252) and the links it sees (queries in the page's encoding, {@code <base href>} parsed as a URL,
 * {@code &#0;}, template content), each link in the crawler's canonical form.
 */
class BrowserDocumentsTest {
  private static final Pattern CHARSET = Pattern.compile("charset=([^;\\s]+)");
  private final UrlNormalizer normalizer = new UrlNormalizer(2048, true);
  private final LinkExtractor extractor = new LinkExtractor(normalizer, true, "sievecrawl");

  @Test
  void pagesAreDecodedAndTheirLinksResolvedAsChromiumDoes() {
    List<String> failures = new ArrayList<>();
    JsonNode documents = ChromiumTables.document("documents").get("documents");
    for (JsonNode doc : documents) {
      String name = doc.get("name").asText();
      byte[] body = Base64.getDecoder().decode(doc.get("body").asText());
      Matcher charset = CHARSET.matcher(doc.get("type").asText());
      String headerCharset = charset.find() ? charset.group(1) : null;
      String encoding = HtmlCharset.of(body, headerCharset).encoding().name();
      if (!encoding.equals(doc.get("characterSet").asText())) {
        failures.add(name + ": encoding " + encoding + ", Chromium " + doc.get("characterSet").asText());
      }
      Url page = normalizer.parse("http://127.0.0.1" + doc.get("url").asText());
      List<String> links = extractor.extract(body, headerCharset, page, null).urls().stream()
          .map(Url::toString).toList();
      List<String> chromium = new ArrayList<>();
      for (JsonNode link : doc.get("links")) {
        Url url = normalizer.parse(link.asText()); // Chromium's href, canonical; a relative one did not resolve
        chromium.add(url == null ? null : url.toString());
      }
      List<String> expected = chromium.stream().filter(Objects::nonNull).distinct().toList();
      if (!links.equals(expected)) {
        failures.add(name + ": links " + links + ", Chromium " + expected);
      }
    }
    assertEquals(List.of(), failures);
    assertEquals(45, documents.size());
  }
}

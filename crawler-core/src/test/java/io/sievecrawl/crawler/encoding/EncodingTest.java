package io.sievecrawl.crawler.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Every label of the pinned encodings.json decodes as Chromium's TextDecoder decodes it: each byte value, pairs of
 * bytes after every lead byte, gb18030's four-byte and EUC-JP's three-byte sequences, ISO-2022-JP's escapes, and
 * sequences cut short or invalid (src/test/resources/encoding, made with Chromium 150).
 */
class EncodingTest {
  @Test
  void thePinnedTableHas228LabelsOf40Encodings() {
    assertEquals(228, Labels.all().size());
    assertEquals(40, Labels.names().size());
  }

  /** Labels reads encodings.json with a scanner of its strings: it reads what a JSON parser reads, in order. */
  @Test
  void theTableIsWhatAJsonParserReadsInEncodingsJson() throws java.io.IOException {
    java.util.Map<String, String> parsed = new java.util.LinkedHashMap<>();
    try (java.io.InputStream in = Labels.class.getResourceAsStream("encodings.json")) {
      for (JsonNode section : new com.fasterxml.jackson.databind.ObjectMapper().readTree(in)) {
        for (JsonNode encoding : section.get("encodings")) {
          for (JsonNode label : encoding.get("labels")) {
            parsed.put(label.asText(), encoding.get("name").asText());
          }
        }
      }
    }
    assertEquals(new ArrayList<>(parsed.entrySet()), new ArrayList<>(Labels.all().entrySet()));
  }

  @Test
  void everyLabelNamesTheEncodingChromiumGivesAPageLabelledSo() {
    List<JsonNode> rows = ChromiumTables.rows("document-encodings");
    assertEquals(228, rows.size());
    for (JsonNode row : rows) {
      String label = row.get("label").asText();
      WebEncoding encoding = WebEncoding.forLabel(label);
      assertNotNull(encoding, label);
      assertEquals(row.get("characterSet").asText(), encoding.name(), label);
      assertSame(encoding, WebEncoding.forLabel(" \t" + label.toUpperCase(Locale.ROOT) + "\n\f"), label);
    }
  }

  @Test
  void everyLabelDecodesAsChromiumsTextDecoder() {
    List<String> failures = new ArrayList<>();
    int decoded = 0;
    for (JsonNode row : ChromiumTables.rows("decoding")) {
      String label = row.get("label").asText();
      WebEncoding encoding = WebEncoding.forLabel(label);
      if (row.has("error")) { // TextDecoder refuses the replacement encoding's labels
        assertEquals("replacement", encoding.name(), label);
        continue;
      }
      assertEquals(row.get("encoding").asText(), encoding.name().toLowerCase(Locale.ROOT), label);
      String expected = chromiumBig5Fixed(encoding, row.get("text").asText());
      String actual = encoding.decode(ChromiumTables.hex(row.get("bytes").asText()));
      decoded++;
      if (!expected.equals(actual)) {
        failures.add(label + " " + row.get("case").asText() + ": " + firstDifference(expected, actual));
      }
    }
    assertEquals(List.of(), failures);
    assertTrue(decoded > 1500, "rows decoded: " + decoded);
  }

  /**
   * Chromium 150 decodes the four Big5 pointers that stand for two code points (0x88 0x62, 0x88 0x64, 0x88 0xA3,
   * 0x88 0xA5) as U+0093 or U+00B3 followed by a lone surrogate; the standard (and Firefox) give Ê̄, Ê̌, ê̄ and ê̌.
   */
  private static String chromiumBig5Fixed(WebEncoding encoding, String text) {
    if (!encoding.name().equals("Big5")) {
      return text;
    }
    return text.replace("\u0093\udf04", "\u00ca\u0304").replace("\u0093\udf0c", "\u00ca\u030c")
        .replace("\u00b3\udf04", "\u00ea\u0304").replace("\u00b3\udf0c", "\u00ea\u030c");
  }

  private static String firstDifference(String expected, String actual) {
    int i = 0;
    while (i < expected.length() && i < actual.length() && expected.charAt(i) == actual.charAt(i)) {
      i++;
    }
    return "at char " + i + ": expected " + codePoints(expected, i) + ", got " + codePoints(actual, i);
  }

  private static String codePoints(String s, int from) {
    StringBuilder out = new StringBuilder();
    s.substring(from, Math.min(s.length(), from + 6)).codePoints()
        .forEach(c -> out.append(String.format("U+%04X ", c)));
    return out.toString().strip();
  }

  @Test
  void legacyEncodingsHoldWhatTheJdksNarrowerCharsetsLose() {
    byte[] ttom = {(byte) 0x8C, 0x63}; // U+B620, a Hangul syllable of windows-949's extension
    assertEquals("\ufffdc", new String(ttom, Charset.forName("EUC-KR")), "the JDK's EUC-KR");
    assertEquals("\ub620", WebEncoding.forLabel("euc-kr").decode(ttom));
    assertEquals("\u2460", WebEncoding.forLabel("shift_jis").decode(new byte[] {(byte) 0x87, 0x40}), "NEC row 13");
    assertEquals("\u0080", WebEncoding.forLabel("gb2312").decode(new byte[] {(byte) 0x81, 0x30, (byte) 0x81, 0x30}));
    assertEquals("\u0104", WebEncoding.forLabel("iso-8859-10").decode(new byte[] {(byte) 0xA1}), "no JDK charset");
    assertEquals("\u0081\u20ac", WebEncoding.forLabel("iso-8859-1").decode(new byte[] {(byte) 0x81, (byte) 0x80}));
    assertEquals("\ufffd", WebEncoding.forLabel("iso-2022-kr").decode(new byte[] {'<', 'p', '>'}), "replacement");
  }

  @Test
  void unknownLabelsNameNothing() {
    assertNull(WebEncoding.forLabel("utf-7"));
    assertNull(WebEncoding.forLabel("x-mac-ce"));
    assertNull(WebEncoding.forLabel(""));
    assertNull(WebEncoding.forLabel("utf-8\u00a0")); // only ASCII white space is trimmed
  }

  @Test
  void utf16AndTheReplacementEncodingPutTheirUrlsInUtf8() {
    assertSame(WebEncoding.UTF_8, WebEncoding.UTF_16LE.forUrls());
    assertSame(WebEncoding.UTF_8, WebEncoding.forLabel("hz-gb-2312").forUrls());
    assertSame(WebEncoding.forLabel("sjis"), WebEncoding.forLabel("sjis").forUrls());
  }

  @Test
  void iso2022JpEncodesRunsBetweenEscapes() {
    WebEncoding.Encoder encoder = WebEncoding.forLabel("iso-2022-jp").newEncoder();
    List<Integer> bytes = new ArrayList<>();
    for (int c : "\u65e5a\u00a5a\\".codePoints().toArray()) {
      assertEquals(WebEncoding.Encoder.ENCODED, encoder.encode(c, bytes::add));
    }
    encoder.finish(bytes::add);
    assertEquals(List.of(0x1B, 0x24, 0x42, 0x46, 0x7C, 0x1B, 0x28, 0x42, 0x61, 0x1B, 0x28, 0x4A, 0x5C, 0x61,
        0x1B, 0x28, 0x42, 0x5C), bytes);
    assertEquals(0xFFFD, WebEncoding.forLabel("iso-2022-jp").newEncoder().encode(0x1B, bytes::add));
    assertEquals(0x2603, WebEncoding.forLabel("iso-2022-jp").newEncoder().encode(0x2603, bytes::add));
  }
}

package io.sievecrawl.crawler.url;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link PercentEncoding} on its own: what a path keeps raw that a query encodes, and a query in a page's encoding. */
class PercentEncodingTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "/a%7eb%7E%41 | /a~b~A",
      "/%3a%2f%c3%a9 | /%3A%2F%C3%A9",
      "/100% | /100%25",
      "/%zz%4 | /%25zz%254",
      "/it's;x=1:@!$&()*+, | /it's;x=1:@!$&()*+,",
      "/a b^c?d | /a%20b%5Ec%3Fd",
      "/caf\u00e9 | /caf%C3%A9",
      "/\ud800x | /%EF%BF%BDx",
      "/\ud83d\ude00 | /%F0%9F%98%80",
      "/%\uff14\uff11 | /%25%EF%BC%94%EF%BC%91",
  })
  void aPath(String path, String expected) {
    assertEquals(expected, PercentEncoding.normalizePath(path));
  }

  @ParameterizedTest(name = "{0} in {1} -> {2}")
  @CsvSource(delimiter = '|', value = {
      "q=it's | UTF-8 | q=it%27s",
      "a=b?c/d:e@f;g | UTF-8 | a=b?c/d:e@f;g",
      "q=caf\u00e9 | UTF-8 | q=caf%C3%A9",
      "q=caf\u00e9 | windows-1252 | q=caf%E9",
      "q=%e9 | windows-1252 | q=%E9",
      "q=\u65e5 | windows-1252 | q=%26%2326085%3B",
      "q=\ud800 | windows-1252 | q=%26%2365533%3B",
      "q=\uff0e | Shift_JIS | q=%81D",
      "a b | Shift_JIS | a%20b",
  })
  void aQueryInTheDocumentsEncoding(String query, String encoding, String expected) {
    assertEquals(expected, PercentEncoding.normalizeQuery(query, io.sievecrawl.crawler.encoding.WebEncoding.forLabel(encoding)));
  }
}

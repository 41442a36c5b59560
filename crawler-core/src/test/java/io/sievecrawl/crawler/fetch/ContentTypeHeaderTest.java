package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ContentTypeHeaderTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', nullValues = "NULL", value = {
      "text/html                          | text/html             | NULL",
      "Text/HTML; Charset=UTF-8           | text/html             | UTF-8",
      "text/html ; charset=utf-8          | text/html             | utf-8",
      "text/html;charset=\"iso-8859-1\"   | text/html             | iso-8859-1",
      "text/html; charset=                | text/html             | NULL",
      "text/html; charset=utf-8; x        | text/html             | utf-8",
      "text/html; q=1; charset = utf-8    | text/html             | utf-8",
      "'  application/xhtml+xml  '        | application/xhtml+xml | NULL",
      "html                               | NULL                  | NULL",
      "text/                              | NULL                  | NULL",
      "text/html text                     | NULL                  | NULL",
      "''                                 | NULL                  | NULL",
      "; charset=utf-8                    | NULL                  | utf-8",
  })
  void readsTheTypeAndCharsetAsBrowsersDo(String header, String type, String charset) {
    ContentTypeHeader parsed = ContentTypeHeader.parse(header);
    assertEquals(type, parsed.mediaType(), header);
    assertEquals(charset, parsed.charset(), header);
  }

  @ParameterizedTest
  @CsvSource(nullValues = "NULL", value = {"NULL"})
  void noHeaderIsNoType(String header) {
    assertEquals(ContentTypeHeader.NONE, ContentTypeHeader.parse(header));
  }
}

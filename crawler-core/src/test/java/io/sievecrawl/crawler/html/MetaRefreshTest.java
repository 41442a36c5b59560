package io.sievecrawl.crawler.html;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The content attribute of a meta refresh, as the HTML standard's shared declarative refresh steps read it. */
class MetaRefreshTest {

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(delimiter = '|', nullValues = "NONE", ignoreLeadingAndTrailingWhitespace = false, textBlock = """
      5; url=/next|/next
      5;URL='/next'|/next
      0; Url = "/a b"|/a b
      0;url='/quoted' tail|/quoted
      0; url="/unclosed|/unclosed
      3 /next|/next
      0, next.html|next.html
      0,'next.html'|next.html
      1.5; url=/x|/x
      .5; url=/x|/x
        7  ;  url=/x|/x
      0; ur.html|ur.html
      0; url.html|url.html
      0; urlx=/y|urlx=/y
      0; url /y|url /y
      0; url=|''
      5|NONE
      5;|NONE
      5;   |NONE
      url=/no-time|NONE
      -1; url=/x|NONE
      5x; url=/x|NONE
      |NONE
      """)
  void readsTheUrlOfARefresh(String content, String url) {
    assertEquals(url == null ? null : url, MetaRefresh.url(content == null ? "" : content));
  }
}

package io.sievecrawl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RequestHeaderTest {

  private static CrawlSettings.Builder fromFile(String text) {
    CrawlSettings.Builder builder = CrawlSettings.builder();
    ConfigFile.parse("crawl.conf", text, builder);
    return builder;
  }

  @Test
  void headersAddUpInOrderAndALaterOneOfTheSameNameReplacesTheEarlier() {
    CrawlSettings s = fromFile("""
        [fetch]
        header = Accept-Language: fr, en;q=0.8
        header = X-Team:   crawl  \t
        header = Authorization: Bearer abc
        """).parse(Setting.HEADER, "x-team: archive", "--header").build();
    assertEquals(List.of(new RequestHeader("Accept-Language", "fr, en;q=0.8"),
        new RequestHeader("Authorization", "Bearer abc"), new RequestHeader("x-team", "archive")),
        s.fetch().headers());
    assertEquals(List.of(), CrawlSettings.defaults().fetch().headers());
    assertEquals(List.of(), fromFile("fetch.header = X-Team: crawl").parse(Setting.HEADER, "", "--set").build()
        .fetch().headers(), "an empty value clears the headers given before");
  }

  @Test
  void aHeaderNamedTwiceInOneFileIsReportedWithBothLines() {
    SettingsException e = assertThrows(SettingsException.class, () -> fromFile("""
        [fetch]
        header = X-Team: crawl
        header = Accept: text/html
        header = x-team: archive
        """).build());
    assertEquals(List.of("crawl.conf:4: fetch.header = x-team: archive: already set on line 2"),
        e.problems().stream().map(Problem::toString).toList());
  }

  @Test
  void badHeadersAreReportedWithWhatIsWrong() {
    SettingsException e = assertThrows(SettingsException.class, () -> fromFile("""
        [fetch]
        header = Accept-Language fr
        header = X Team: crawl
        header = Host: example.com
        header = User-Agent: Mozilla/5.0
        header = Accept-Encoding: br
        header = X-Name: caf\u00e9
        """).build());
    assertEquals(List.of(
        "crawl.conf:2: fetch.header = Accept-Language fr: must be NAME: VALUE, e.g. 'Accept-Language: fr'",
        "crawl.conf:3: fetch.header = X Team: crawl: the header name 'X Team' must be letters, digits and"
            + " !#$%&'*+-.^_`|~ (an HTTP token)",
        "crawl.conf:4: fetch.header = Host: example.com: the Host header is taken from each URL",
        "crawl.conf:5: fetch.header = User-Agent: Mozilla/5.0: the User-Agent header is set by fetch.user-agent"
            + " (and fetch.contact)",
        "crawl.conf:6: fetch.header = Accept-Encoding: br: the Accept-Encoding header is set by the crawler, which"
            + " decodes what it accepts (gzip, deflate)",
        "crawl.conf:7: fetch.header = X-Name: caf\u00e9: the value of the X-Name header must be printable ASCII"),
        e.problems().stream().map(Problem::toString).toList());
  }

  @Test
  void credentialsAreHiddenInTheDescriptionButKeptInTheConfigText() {
    CrawlSettings s = fromFile("""
        fetch.header = Authorization: Basic dXNlcjpwYXNz
        fetch.header = Cookie: session=s3cret; theme=dark
        fetch.header = Accept: text/html
        """).build();
    String described = String.join("\n", s.describe());
    assertFalse(described.contains("dXNlcjpwYXNz") || described.contains("s3cret"), described);
    assertTrue(described.contains("fetch.header = \"Authorization: <hidden>\"    # crawl.conf:1, default \"\"\n"), described);
    assertTrue(described.contains("fetch.header = \"Accept: text/html\"    # crawl.conf:3, default \"\"\n"), described);
    assertEquals(List.of("\"Authorization: <hidden>\"", "\"Cookie: <hidden>\"", "\"Accept: text/html\""),
        s.shownValues().get("fetch.header"));

    CrawlSettings.Builder back = CrawlSettings.builder();
    ConfigFile.parse("settings.conf", s.toConfigText(), back);
    assertEquals(s.fetch().headers(), back.build().fetch().headers(),
        "the crawl directory's settings keep the values, to resume");
    assertTrue(new RequestHeader("cookie", "a=1").isCredential());
    assertFalse(new RequestHeader("X-Api-Version", "2").isCredential());
  }
}

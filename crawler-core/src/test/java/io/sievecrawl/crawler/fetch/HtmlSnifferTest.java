package io.sievecrawl.crawler.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.testing.FakeClock;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HtmlSnifferTest {
  @ParameterizedTest
  @ValueSource(strings = {"<!DOCTYPE html>", "<!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">", "<html>",
      "<HTML lang=en>", "<head>", "<script>x</script>", "<iframe src=a>", "<h1>Title</h1>", "<div>", "<font>",
      "<table>", "<a href=x>", "<style>", "<title>t</title>", "<b>", "<body>", "<br>", "<p>text", "<!-- c -->",
      " \t\r\n\f<html>", "\uFEFF<!DOCTYPE html>"})
  void markupAtTheStartIsHtml(String body) {
    assertTrue(HtmlSniffer.looksLikeHtml(body.getBytes(StandardCharsets.UTF_8)), body);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "<", "<html", "<!DOCTYPE htm>", "<abbr>", "<pre>", "<h2>", "<!--x-->", "<?xml version=\"1.0\"?>",
      "%PDF-1.7", "plain text <html>", "{\"json\": \"<html>\"}", "\u00A0<html>"})
  void anythingElseIsNot(String body) {
    assertFalse(HtmlSniffer.looksLikeHtml(body.getBytes(StandardCharsets.UTF_8)), body);
  }

  @Test
  void onlyAMissingOrUnknownTypeIsSniffed() {
    assertTrue(HtmlSniffer.typeUnknown(null));
    assertTrue(HtmlSniffer.typeUnknown("unknown/unknown"));
    assertTrue(HtmlSniffer.typeUnknown("application/unknown"));
    assertTrue(HtmlSniffer.typeUnknown("*/*"));
    assertFalse(HtmlSniffer.typeUnknown("text/plain"), "a declared type is believed");
    assertFalse(HtmlSniffer.typeUnknown("application/octet-stream"));
  }

  @Test
  void aPageServedWithoutContentTypeIsParsedWhenItStartsAsHtml() {
    WireMockServer server = new WireMockServer(options().dynamicPort().gzipDisabled(true)); // bytes as given
    server.start();
    try {
      byte[] page = "\n<!DOCTYPE html><a href=/next>next</a>".getBytes(StandardCharsets.UTF_8);
      server.stubFor(get(urlEqualTo("/page")).willReturn(aResponse().withBody(page)));
      server.stubFor(get(urlEqualTo("/data")).willReturn(aResponse().withBody(new byte[] {0, 1, 2, '<', 'p', '>'})));
      server.stubFor(get(urlEqualTo("/text")).willReturn(aResponse().withHeader("Content-Type", "text/plain")
          .withBody("<html><a href=/no>")));
      server.stubFor(get(urlEqualTo("/missing")).willReturn(aResponse().withStatus(404).withBody("<html>gone")));
      FakeClock clock = new FakeClock();
      PageFetcher fetcher = PageFetcher.builder(CrawlSettings.builder().build(), clock, clock).build();
      String base = "http://127.0.0.1:" + server.port();

      FetchResponse untyped = fetcher.fetch(Url.ofCanonical(base + "/page"), true);
      assertEquals("text/html", untyped.contentType());
      assertTrue(untyped.isHtml());
      assertArrayEquals(page, untyped.body());

      FetchResponse data = fetcher.fetch(Url.ofCanonical(base + "/data"), true);
      assertNull(data.contentType(), "no header, and not markup");
      assertEquals(0, data.body().length);
      assertEquals(6, data.bytes(), "still counted");

      assertFalse(fetcher.fetch(
          Url.ofCanonical(base + "/text"), true).isHtml(), "a declared type is believed, as browsers do");
      FetchResponse missing = fetcher.fetch(Url.ofCanonical(base + "/missing"), true);
      assertFalse(missing.isHtml(), "an error page is not parsed");
      assertEquals(0, missing.body().length);
      assertFalse(fetcher.fetch(
          Url.ofCanonical(base + "/page"), false).isHtml(), "a body not to be kept is not sniffed");
    } finally {
      server.stop();
    }
  }
}

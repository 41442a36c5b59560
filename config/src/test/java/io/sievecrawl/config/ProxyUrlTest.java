package io.sievecrawl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ProxyUrlTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
      http://proxy.example:3128     | proxy.example | 3128 | -    | -
      proxy.example:3128            | proxy.example | 3128 | -    | -
      HTTP://Proxy.Example          | proxy.example | 80   | -    | -
      http://proxy.example:8080/    | proxy.example | 8080 | -    | -
      http://[::1]:3128             | ::1           | 3128 | -    | -
      http://me:s%40cret+1@10.0.0.1:8080 | 10.0.0.1 | 8080 | me   | s@cret+1
      http://me@proxy.example:1     | proxy.example | 1    | me   | ''
      """)
  void takesTheFormsCurlAndWgetTake(String text, String host, int port, String user, String password) {
    ProxyUrl proxy = ProxyUrl.parse(text);
    assertEquals(host, proxy.host());
    assertEquals(port, proxy.port());
    assertEquals(user, proxy.user());
    assertEquals(password, proxy.password());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "http://", "http://proxy.example:3128/path", "http://proxy.example:3128?x=1",
      "http://proxy example:1", "ftp://proxy.example:21"})
  void refusesWhatIsNoProxyUrl(String text) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyUrl.parse(text));
    assertEquals("an HTTP proxy URL, http://[USER:PASSWORD@]HOST[:PORT]" + (text.startsWith("ftp") ? " (ftp proxies are"
        + " not supported)" : ""), e.getMessage());
  }

  @Test
  void aSocksOrTlsProxyIsNamedAsUnsupported() {
    assertEquals("an HTTP proxy URL, http://[USER:PASSWORD@]HOST[:PORT] (socks5 proxies are not supported)",
        assertThrows(IllegalArgumentException.class, () -> ProxyUrl.parse("socks5://127.0.0.1:1080")).getMessage());
    assertThrows(IllegalArgumentException.class, () -> ProxyUrl.parse("https://proxy.example:443"));
  }

  @Test
  void theSettingTakesNoneOrAProxyWithoutCredentials() {
    assertEquals("none", Setting.PROXY.parse("none"));
    assertEquals("http://proxy.example:3128", Setting.PROXY.parse("http://proxy.example:3128"));
    assertEquals("must be empty, none or an HTTP proxy URL, http://[USER:PASSWORD@]HOST[:PORT] (socks5 proxies are not"
        + " supported)", assertThrows(IllegalArgumentException.class, () -> Setting.PROXY.parse("socks5://x:1"))
        .getMessage());
    String refusal = assertThrows(IllegalArgumentException.class,
        () -> Setting.PROXY.parse("http://me:secret@proxy.example:3128")).getMessage();
    assertEquals("must not hold a user or password, as settings are recorded in the crawl directory and WARC files:"
        + " give them in the https_proxy or http_proxy environment variable", refusal);
  }

  @Test
  void itsTextLeavesTheCredentialsOut() {
    assertEquals("http://proxy.example:3128", ProxyUrl.parse("http://me:secret@proxy.example:3128").toString());
    assertEquals("http://[::1]:80", ProxyUrl.parse("http://[::1]").toString());
  }
}

package io.sievecrawl.crawler.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.testing.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A site whose certificate no public authority signed: refused by default, fetched with its CA's PEM file
 * (fetch.ca-file), or with no check at all (fetch.insecure-tls). The certificate is made by the JDK's keytool.
 */
class TlsTrustIT {
  @TempDir
  static Path keys;
  private static Path caPem;
  private WireMockServer server;

  /** A self-signed certificate for localhost and 127.0.0.1 in a PKCS12 key store, and the same as PEM. */
  @BeforeAll
  static void makeCertificate() throws IOException, InterruptedException {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    keytool(keytool.toString(), "-genkeypair", "-alias", "site", "-keyalg", "RSA", "-keysize", "2048",
        "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2",
        "-storetype", "PKCS12", "-keystore", keys.resolve("site.p12").toString(), "-storepass", "secret123");
    caPem = keys.resolve("site.pem");
    keytool(keytool.toString(), "-exportcert", "-rfc", "-alias", "site", "-keystore",
        keys.resolve("site.p12").toString(), "-storepass", "secret123", "-file", caPem.toString());
  }

  private static void keytool(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertEquals(0, process.waitFor(), output);
  }

  private String serve() {
    server = new WireMockServer(options().dynamicPort().dynamicHttpsPort()
        .keystorePath(keys.resolve("site.p12").toString()).keystoreType("PKCS12").keystorePassword("secret123")
        .keyManagerPassword("secret123"));
    server.start();
    server.stubFor(get(urlEqualTo("/")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody("<p>hello</p>")));
    return "https://localhost:" + server.httpsPort() + "/";
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop();
    }
  }

  private static FetchResponse fetch(String url, CrawlSettings settings) {
    FakeClock clock = new FakeClock();
    try (PageFetcher fetcher = PageFetcher.builder(settings, clock, clock).build()) {
      return fetcher.fetch(Url.ofCanonical(url), true);
    }
  }

  @Test
  void aPrivateCaIsRefusedByDefaultAndTrustedThroughItsPemFile() {
    String url = serve();
    assertEquals(ErrorKind.TLS, fetch(url, CrawlSettings.defaults()).errorKind());
    FetchResponse trusted = fetch(url, CrawlSettings.builder().set(Setting.CA_FILE, caPem.toString()).build());
    assertNull(trusted.errorKind(), trusted.error());
    assertEquals(200, trusted.status());
    FetchResponse otherName = fetch("https://127.0.0.2:" + server.httpsPort() + "/",
        CrawlSettings.builder().set(Setting.CA_FILE, caPem.toString()).build());
    assertEquals(ErrorKind.TLS, otherName.errorKind(), "a trusted certificate for another host is still refused");
  }

  /**
   * The JDK's trust store takes some 50 ms to load: a crawl that never leaves http does not load it, and its first
   * https origin does, for every https origin after it.
   */
  @Test
  void anHttpOnlyCrawlLoadsNoCertificatesAndItsFirstHttpsOriginLoadsTheJdksOnce() {
    String https = serve();
    HttpUrl http = HttpUrl.get("http://localhost:" + server.port() + "/");
    FakeClock clock = new FakeClock();
    try (PageFetcher fetcher = PageFetcher.builder(CrawlSettings.defaults(), clock, clock).build()) {
      assertEquals(200, fetcher.fetch(Url.ofCanonical(http.toString()), true).status());
      assertNull(fetcher.clients().clientFor(http).x509TrustManager(), "no certificates loaded for http");
      assertEquals(ErrorKind.TLS, fetcher.fetch(Url.ofCanonical(https), true).errorKind(), "the JDK's CAs only");
      OkHttpClient tls = fetcher.clients().clientFor(HttpUrl.get(https));
      assertNotNull(tls.x509TrustManager());
      assertSame(tls.x509TrustManager(), fetcher.clients().clientFor(HttpUrl.get("https://127.0.0.2:1/"))
          .x509TrustManager(), "made once");
      assertNull(fetcher.clients().clientFor(http).x509TrustManager(), "http still without");
    }
  }

  @Test
  void insecureTlsAcceptsAnyCertificateForAnyHost() {
    String url = serve();
    CrawlSettings insecure = CrawlSettings.builder().set(Setting.INSECURE_TLS, true).build();
    assertEquals(200, fetch(url, insecure).status());
    assertEquals(200, fetch("https://127.0.0.2:" + server.httpsPort() + "/", insecure).status());
  }

  @Test
  void anUnusableCaFileIsRefusedNamingTheSettingAndTheFile() throws IOException {
    Path missing = keys.resolve("missing.pem");
    Path notPem = Files.writeString(keys.resolve("notes.txt"), "not a certificate\n");
    for (var expected : List.of(
        List.of(missing.toString(), "fetch.ca-file: " + missing + " does not exist"),
        List.of(notPem.toString(), "fetch.ca-file: " + notPem + " "))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> TlsTrust.check(CrawlSettings.builder().set(Setting.CA_FILE, expected.get(0)).build().fetch()));
      assertEquals(true, e.getMessage().startsWith(expected.get(1)), e.getMessage());
    }
  }
}

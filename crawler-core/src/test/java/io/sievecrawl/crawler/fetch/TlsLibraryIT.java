package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.testing.FakeClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509TrustManager;
import org.conscrypt.Conscrypt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The crawl speaks TLS 1.2 and 1.3 on either TLS library (fetch.native-tls), checking the certificate against
 * fetch.ca-file and naming the site in the handshake (SNI), as a site that serves several names needs. The server is
 * the JDK's, on loopback, with a certificate for site.test signed by a test CA (the JDK's keytool makes both).
 */
class TlsLibraryIT {
  @TempDir
  static Path keys;
  private static Path keyStore;
  private static Path caPem;

  /**
   * A test CA, and a certificate for site.test signed by it (a chain of two, as sites have: a certificate trusted
   * as itself skips the end-entity checks), in a PKCS12 key store; the CA's certificate as PEM.
   */
  @BeforeAll
  static void makeCertificates() throws IOException, InterruptedException {
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    String ca = keys.resolve("ca.p12").toString();
    keyStore = keys.resolve("site.p12");
    String site = keyStore.toString();
    caPem = keys.resolve("ca.pem");
    String csr = keys.resolve("site.csr").toString();
    String crt = keys.resolve("site.crt").toString();
    keytool(keytool, "-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=test CA",
        "-ext", "bc:c", "-validity", "2", "-storetype", "PKCS12", "-keystore", ca, "-storepass", "secret123");
    keytool(keytool, "-exportcert", "-rfc", "-alias", "ca", "-keystore", ca, "-storepass", "secret123", "-file",
        caPem.toString());
    keytool(keytool, "-genkeypair", "-alias", "site", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=site.test",
        "-validity", "2", "-storetype", "PKCS12", "-keystore", site, "-storepass", "secret123");
    keytool(keytool, "-certreq", "-alias", "site", "-keystore", site, "-storepass", "secret123", "-file", csr);
    keytool(keytool, "-gencert", "-rfc", "-alias", "ca", "-keystore", ca, "-storepass", "secret123", "-infile", csr,
        "-outfile", crt, "-ext", "SAN=dns:site.test", "-ext", "KU=digitalSignature,keyEncipherment", "-validity",
        "2");
    keytool(keytool, "-importcert", "-noprompt", "-alias", "ca", "-file", caPem.toString(), "-keystore", site,
        "-storepass", "secret123");
    keytool(keytool, "-importcert", "-alias", "site", "-file", crt, "-keystore", site, "-storepass", "secret123");
  }

  private static void keytool(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertEquals(0, process.waitFor(), output);
  }

  @ParameterizedTest(name = "native-tls {0}, {1}")
  @CsvSource({"true, TLSv1.3", "true, TLSv1.2", "false, TLSv1.3", "false, TLSv1.2"})
  void aPageComesOverEitherLibraryAndVersionWithTheSiteNamedInTheHandshake(boolean nativeTls, String version)
      throws Exception {
    try (OnePageServer server = new OnePageServer(version)) {
      CrawlSettings settings = CrawlSettings.builder().set(Setting.CA_FILE, caPem.toString())
          .set(Setting.NATIVE_TLS, nativeTls).parse(Setting.RESOLVE, "site.test:*:127.0.0.1", "test").build();
      FakeClock clock = new FakeClock();
      FetchResponse page;
      try (PageFetcher fetcher = PageFetcher.builder(settings, clock, clock).build()) {
        page = fetcher.fetch(Url.ofCanonical("https://site.test:" + server.port() + "/"), true);
      }
      assertNull(page.errorKind(), page.error());
      assertEquals(200, page.status());
      assertEquals(List.of("site.test " + version), List.copyOf(server.handshakes));
    }
  }

  /** Over TLS too, a body that stops half-way ends at the read timeout: a call timeout of an hour would hold it. */
  @ParameterizedTest(name = "native-tls {0}")
  @CsvSource({"true", "false"})
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aBodyThatStopsHalfWayEndsAtTheReadTimeoutOnEitherLibrary(boolean nativeTls) throws Exception {
    try (OnePageServer server = new OnePageServer("TLSv1.3", true)) {
      CrawlSettings settings = CrawlSettings.builder().set(Setting.CA_FILE, caPem.toString())
          .set(Setting.NATIVE_TLS, nativeTls).parse(Setting.RESOLVE, "site.test:*:127.0.0.1", "test")
          .set(Setting.READ_TIMEOUT, Duration.ofMillis(300)).set(Setting.CALL_TIMEOUT, Duration.ofHours(1)).build();
      FakeClock clock = new FakeClock();
      FetchResponse page;
      try (PageFetcher fetcher = PageFetcher.builder(settings, clock, clock).build()) {
        page = fetcher.fetch(Url.ofCanonical("https://site.test:" + server.port() + "/"), true);
      }
      assertEquals(200, page.status());
      assertEquals(ErrorKind.TIMEOUT, page.errorKind(), page.error());
    }
  }

  @Test
  void theSocketsAreBoringSslsWhereItLoadsAndTheJdksWithNativeTlsOff() throws IOException {
    assumeTrue(Conscrypt.isAvailable(), "Conscrypt's native library does not load on this platform");
    X509TrustManager trust = TlsTrust.withCaFile(caPem);
    try (Socket boringSsl = TlsLibrary.socketFactory(trust, true).createSocket();
        Socket jdk = TlsLibrary.socketFactory(trust, false).createSocket()) {
      assertTrue(boringSsl.getClass().getName().startsWith("org.conscrypt."), boringSsl.getClass().getName());
      assertTrue(jdk.getClass().getName().startsWith("sun.security.ssl."), jdk.getClass().getName());
    }
  }

  /**
   * Serves one page on loopback over the TLS version given, or half of it and then nothing until the client goes,
   * and records each handshake's server name and version.
   */
  private static final class OnePageServer implements AutoCloseable {
    final Queue<String> handshakes = new ConcurrentLinkedQueue<>();
    private final SSLServerSocket socket;
    private final boolean stallHalfWay;
    private final Thread acceptor;

    OnePageServer(String version) throws Exception {
      this(version, false);
    }

    OnePageServer(String version, boolean stallHalfWay) throws Exception {
      this.stallHalfWay = stallHalfWay;
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = java.nio.file.Files.newInputStream(keyStore)) {
        store.load(in, "secret123".toCharArray());
      }
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, "secret123".toCharArray());
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      socket = (SSLServerSocket) context.getServerSocketFactory().createServerSocket(0, 8,
          InetAddress.getLoopbackAddress());
      socket.setEnabledProtocols(new String[] {version});
      acceptor = Thread.ofPlatform().name("one-page-server").start(this::serve);
    }

    int port() {
      return socket.getLocalPort();
    }

    private void serve() {
      while (!socket.isClosed()) {
        try (SSLSocket connection = (SSLSocket) socket.accept()) {
          connection.startHandshake();
          ExtendedSSLSession session = (ExtendedSSLSession) connection.getSession();
          String name = session.getRequestedServerNames().stream().filter(n -> n instanceof SNIHostName)
              .map(n -> ((SNIHostName) n).getAsciiName()).findFirst().orElse("(none)");
          handshakes.add(name + " " + session.getProtocol());
          readRequestHead(connection.getInputStream());
          OutputStream out = connection.getOutputStream();
          String page = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 12\r\nConnection: close\r\n\r\n"
              + "<p>hello</p>";
          out.write(page.substring(0, stallHalfWay ? page.length() - 6 : page.length())
              .getBytes(StandardCharsets.US_ASCII));
          out.flush();
          if (stallHalfWay) {
            connection.getInputStream().readAllBytes(); // until the client gives up and closes
          }
        } catch (IOException e) {
          // closed, or a client that went away: the test's assertions say what it needed
        }
      }
    }

    private static void readRequestHead(InputStream in) throws IOException {
      int matched = 0; // of "\r\n\r\n"
      int c;
      while (matched < 4 && (c = in.read()) != -1) {
        matched = c == "\r\n\r\n".charAt(matched) ? matched + 1 : (c == '\r' ? 1 : 0);
      }
    }

    @Override
    public void close() throws Exception {
      socket.close();
      acceptor.join();
    }
  }
}

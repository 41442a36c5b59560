package io.sievecrawl.crawler.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.Options;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.RequestHeader;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.testing.FakeClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the capture does when the reader stops early, and when a body cannot be kept: the fetch never suffers. */
class CaptureInterceptorTest {
  private final WireMockServer server = new WireMockServer(options().dynamicPort().gzipDisabled(true)
      .useChunkedTransferEncoding(Options.ChunkedEncodingPolicy.NEVER)); // Content-Length declared

  private final FakeClock clock = new FakeClock();
  private final List<Exchange> recorded = new CopyOnWriteArrayList<>();
  private final List<IOException> failures = new CopyOnWriteArrayList<>();

  @TempDir
  Path spill;

  @BeforeEach
  void serve() {
    server.start();
    server.stubFor(get(urlEqualTo("/large")).willReturn(aResponse().withHeader("Content-Type", "application/zip")
        .withBody(new byte[600_000])));
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  @Test
  void aBodyCutAtTheCapIsRecordedTruncatedByLength() {
    PageFetcher fetcher = fetcher(spill, 100_000);
    FetchResponse response = fetcher.fetch(
        Url.ofCanonical("http://127.0.0.1:" + server.port() + "/large"), true);
    assertEquals(200, response.status());
    assertTrue(response.truncated());
    assertEquals(100_000, response.bytes(), "read up to the cap, for the archive");
    assertEquals(1, recorded.size());
    assertEquals(Exchange.Truncation.LENGTH, recorded.get(0).truncation());
    assertEquals(100_000, recorded.get(0).body().size());
    assertTrue(failures.isEmpty());
  }

  @Test
  void withoutACaptureABodyDeclaredOverTheCapThatIsNotParsedIsNotRead() {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.MAX_BODY_SIZE, 100_000L).build();
    FetchResponse response = PageFetcher.builder(settings, clock, clock).build()
        .fetch(Url.ofCanonical("http://127.0.0.1:" + server.port() + "/large"), true);
    assertEquals(200, response.status());
    assertTrue(response.truncated());
    assertEquals(0, response.bytes(), "a zip file over the cap would only have been counted");
  }

  @Test
  void aBodyThatCannotBeSpilledFailsTheCaptureNotTheFetch() {
    PageFetcher fetcher = fetcher(spill.resolve("missing/directory"), 10_000_000);
    FetchResponse response = fetcher.fetch(
        Url.ofCanonical("http://127.0.0.1:" + server.port() + "/large"), true);
    assertEquals(200, response.status());
    assertNull(response.errorKind());
    assertEquals(600_000, response.bytes(), "the page was read whole");
    assertTrue(recorded.isEmpty());
    assertEquals(1, failures.size());
    assertTrue(failures.get(0).getMessage().startsWith("capture failed:"), failures.get(0).getMessage());
  }

  @Test
  void anHttp10ResponseIsRecordedAsItCameAfterTheHttp11RequestThatWasSent() throws Exception {
    byte[] reply = "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>until the connection closes</p>"
        .getBytes(StandardCharsets.ISO_8859_1);
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      StringBuilder requestSeen = new StringBuilder();
      Thread server = Thread.ofPlatform().daemon().start(() -> {
        try (Socket client = socket.accept()) {
          InputStream in = client.getInputStream();
          while (requestSeen.indexOf("\r\n\r\n") < 0) {
            requestSeen.append((char) in.read());
          }
          client.getOutputStream().write(reply);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      FetchResponse response = fetcher(spill, 100_000).fetch(
          Url.ofCanonical("http://127.0.0.1:" + socket.getLocalPort() + "/p"), true);
      server.join();
      assertEquals(200, response.status());
      assertEquals(1, recorded.size());
      Exchange exchange = recorded.get(0);
      assertEquals(requestSeen.toString(), new String(exchange.requestHead(), StandardCharsets.ISO_8859_1),
          "the request as the server received it");
      assertTrue(new String(exchange.responseHead(), StandardCharsets.ISO_8859_1)
          .startsWith("HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n"));
      assertNull(exchange.truncation(), "read until the connection closed: whole");
      assertEquals("<p>until the connection closes</p>".length(), exchange.body().size());
    }
  }

  @Test
  void theUsersExtraHeadersAreRecordedAsSent() {
    server.stubFor(get(urlEqualTo("/small")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody("<p>small</p>")));
    CrawlSettings settings = CrawlSettings.builder().set(Setting.HEADER,
        List.of(new RequestHeader("X-Team", "archive"), new RequestHeader("Accept", "text/html"))).build();
    FetchResponse response = fetcher(settings, spill).fetch(
        Url.ofCanonical("http://127.0.0.1:" + server.port() + "/small"), true);
    assertEquals(200, response.status());
    String head = new String(recorded.get(0).requestHead(), StandardCharsets.ISO_8859_1);
    assertTrue(head.contains("\r\nX-Team: archive\r\n"), head);
    assertTrue(head.contains("\r\nAccept: text/html\r\n") && !head.contains("Accept: text/html,"), head);
  }

  @Test
  void credentialsAreSentAsGivenAndRecordedMaskedUnlessKept() {
    server.stubFor(get(urlEqualTo("/small")).willReturn(aResponse().withHeader("Content-Type", "text/html")
        .withBody("<p>small</p>")));
    CrawlSettings settings = CrawlSettings.builder().set(Setting.HEADER, List.of(
        new RequestHeader("Authorization", "Bearer 0123456789abcdef"),
        new RequestHeader("Cookie", "session=s3cr3t; lang=fr"), new RequestHeader("X-Team", "archive"))).build();
    Url small = Url.ofCanonical("http://127.0.0.1:" + server.port() + "/small");
    assertEquals(200, fetcher(settings, spill, false).fetch(small, true).status());
    assertEquals(200, fetcher(settings, spill, true).fetch(small, true).status());

    var sent = server.findAll(com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor(urlEqualTo("/small")));
    assertEquals(2, sent.size());
    assertEquals("Bearer 0123456789abcdef", sent.get(0).getHeader("Authorization"), "sent as given");
    assertEquals("session=s3cr3t; lang=fr", sent.get(0).getHeader("Cookie"));
    String masked = new String(recorded.get(0).requestHead(), StandardCharsets.ISO_8859_1);
    assertTrue(masked.contains("\r\nAuthorization: Bearer <hidden>\r\n"), masked);
    assertTrue(masked.contains("\r\nCookie: session=<hidden>; lang=<hidden>\r\n"), masked);
    assertTrue(masked.contains("\r\nX-Team: archive\r\n"), masked);
    assertTrue(!masked.contains("0123456789abcdef") && !masked.contains("s3cr3t"), masked);
    String kept = new String(recorded.get(1).requestHead(), StandardCharsets.ISO_8859_1);
    assertTrue(kept.contains("\r\nAuthorization: Bearer 0123456789abcdef\r\n"), kept);
    assertTrue(kept.contains("\r\nCookie: session=s3cr3t; lang=fr\r\n"), kept);
  }

  private PageFetcher fetcher(Path spillDir, long cap) {
    return fetcher(CrawlSettings.builder().set(Setting.MAX_BODY_SIZE, cap).build(), spillDir);
  }

  private PageFetcher fetcher(CrawlSettings settings, Path spillDir) {
    return fetcher(settings, spillDir, false);
  }

  private PageFetcher fetcher(CrawlSettings settings, Path spillDir, boolean keepCredentials) {
    long cap = settings.fetch().maxBodySize();
    ExchangeRecorder recorder = new ExchangeRecorder() {
      @Override
      public StoredAs record(Exchange exchange) {
        recorded.add(exchange); // its body is closed after this returns: only its size is read later
        return null;
      }

      @Override
      public Path spillDirectory() {
        return spillDir;
      }

      @Override
      public IOException failure(IOException cause) {
        return new IOException("capture failed: " + cause.getMessage(), cause);
      }
    };
    return PageFetcher.builder(settings, clock, clock)
        .capture(new CaptureInterceptor(recorder, cap, failures::add, clock, keepCredentials)).build();
  }
}

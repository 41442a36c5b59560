package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.http.Fault;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Scope;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.result.CrawlResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A failing origin holds back only itself, gives up fast when waiting cannot help, and says why. */
class FailureIsolationTest {
  private final WireMockServer server = new WireMockServer(options().dynamicPort().dynamicHttpsPort());

  @AfterEach
  void stop() {
    server.stop();
  }

  private static CrawlSettings.Builder settings() {
    return CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false)
        .set(Setting.FILTER_N, 1_000L).set(Setting.SCOPE, Scope.ANY);
  }

  @Test
  void slowRobotsTxtFilesDoNotHoldTheWorkersThatAnotherOriginNeeds() {
    server.start();
    String healthy = "http://localhost:" + server.port();
    List<String> pages = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      pages.add("/p" + i);
      Html.serve(server, "/p" + i, Html.page("p" + i));
    }
    Html.serve(server, "/", Html.page("home", pages.toArray(String[]::new)));
    server.stubFor(get(urlEqualTo("/robots.txt")).withHeader("Host", containing("localhost"))
        .willReturn(aResponse().withStatus(404)));
    List<String> seeds = new ArrayList<>();
    for (int i = 2; i <= 11; i++) { // ten origins whose robots.txt takes longer than this test
      String host = "127.0.0." + i;
      server.stubFor(get(urlEqualTo("/robots.txt")).withHeader("Host", containing(host))
          .willReturn(aResponse().withBody("User-agent: *\nAllow: /\n").withFixedDelay(60_000)));
      seeds.add("http://" + host + ":" + server.port() + "/");
    }
    seeds.add(healthy + "/");
    AtomicInteger healthyPages = new AtomicInteger();
    AtomicReference<Crawler> crawler = new AtomicReference<>();
    CollectingSink sink = new CollectingSink(r -> {
      if (r.url().startsWith(healthy) && r.status() != null && healthyPages.incrementAndGet() == 21) {
        crawler.get().stop(); // the healthy site is done while the ten robots.txt are still on their way
      }
    });
    crawler.set(Crawler.create(settings().set(Setting.CONCURRENCY, 2).build(), sink));
    CrawlSummary summary = crawler.get().run(seeds);
    assertEquals(21, healthyPages.get(), "two workers crawled the healthy origin past ten pending robots.txt");
    assertEquals(CrawlSummary.End.STOPPED, summary.end());
    assertTrue(summary.accountsForEveryAdmittedUrl(), summary.toString());
  }

  @Test
  void aRefusedConnectionGivesTheOriginUpAtOnce() throws IOException {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort(); // nobody listens there once it is closed
    }
    String seed = "http://127.0.0.1:" + closed + "/";
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary = Crawler.create(settings().set(Setting.ROBOTS_RETRY, Duration.ofHours(1)).build(), sink)
        .run(List.of(seed));
    String reason = summary.givenUp().get("http://127.0.0.1:" + closed);
    assertTrue(reason != null && reason.startsWith("connection refused"), summary.givenUp().toString());
    assertTrue(summary.reachedNothing());
    assertEquals(ErrorKind.ORIGIN_UNREACHABLE, sink.get(seed).errorKind(), "the connection failure it is");
    assertTrue(sink.get(seed).error().startsWith("origin unreachable: connection refused"), sink.get(seed).error());
    assertEquals(1L, summary.skipped().get("origin-unreachable"));
    assertEquals(CrawlSummary.End.COMPLETED, summary.end(), "no wait of robots.retry-after (one hour here)");
  }

  @Test
  void anUntrustedCertificateGivesTheOriginUpWithoutRetries() {
    server.start();
    Html.serve(server, "/", Html.page("home"));
    String seed = "https://localhost:" + server.httpsPort() + "/";
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary = Crawler.create(settings().set(Setting.ROBOTS_RETRY, Duration.ofHours(1)).build(), sink)
        .run(List.of(seed));
    String reason = summary.givenUp().get("https://localhost:" + server.httpsPort());
    assertTrue(reason != null && reason.startsWith("TLS certificate not trusted"), summary.givenUp().toString());
    assertEquals(0, server.getAllServeEvents().size(), "no request got through, and none was retried");
  }

  @Test
  void aConnectionDroppedInTheMiddleOfABodyIsRetried() {
    server.start();
    String root = "http://localhost:" + server.port();
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(404)));
    server.stubFor(get(urlEqualTo("/")).inScenario("flaky").whenScenarioStateIs(STARTED)
        .willReturn(aResponse().withFault(Fault.MALFORMED_RESPONSE_CHUNK)).willSetStateTo("fixed"));
    server.stubFor(get(urlEqualTo("/")).inScenario("flaky").whenScenarioStateIs("fixed")
        .willReturn(aResponse().withHeader("Content-Type", "text/html").withBody(Html.page("home", "/next"))));
    Html.serve(server, "/next", Html.page("next"));
    server.stubFor(get(urlEqualTo("/always-cut")).willReturn(aResponse().withFault(Fault.MALFORMED_RESPONSE_CHUNK)));
    CollectingSink sink = new CollectingSink();
    Crawler.create(settings().set(Setting.RETRY_BACKOFF, Duration.ofMillis(10)).build(), sink)
        .run(List.of(root + "/", root + "/always-cut"));
    assertEquals(200, sink.get(root + "/").status());
    assertEquals(null, sink.get(root + "/").errorKind());
    assertEquals(2, sink.get(root + "/").attempts(), "the status came, then the body broke off: tried again");
    assertEquals(200, sink.get(root + "/next").status(), "and its links followed");
    assertEquals(ErrorKind.NETWORK, sink.get(root + "/always-cut").errorKind());
    assertEquals(3, sink.get(root + "/always-cut").attempts(), "fetch.max-retries = 2");
  }

  @Test
  void aPageCutOffOnEveryAttemptStillGivesTheLinksInItsPartReceived() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      String root = "http://127.0.0.1:" + listener.getLocalPort();
      Thread serving = Thread.ofVirtual().start(() -> serveCutOffPages(listener));
      CollectingSink sink = new CollectingSink();
      Crawler.create(settings().set(Setting.RETRY_BACKOFF, Duration.ofMillis(10)).build(), sink)
          .run(List.of(root + "/"));
      CrawlResult cut = sink.get(root + "/");
      assertEquals(200, cut.status());
      assertEquals(ErrorKind.NETWORK, cut.errorKind());
      assertTrue(cut.error().endsWith("after 64 bytes of the body"), cut.error());
      assertEquals(3, cut.attempts(), "retried as a failure first");
      assertEquals(64, cut.bytes());
      assertEquals(1, cut.outlinks());
      assertEquals(200, sink.get(root + "/next").status(), "the link in the part that came was followed");
      assertEquals(null, sink.get(root + "/next").errorKind());
      serving.interrupt();
    }
  }

  /** Answers robots.txt with 404, / with 64 bytes of a page that declares 10,000 and then hangs up, /next whole. */
  private static void serveCutOffPages(ServerSocket listener) {
    byte[] part = "<html><body><a href=/next>next</a><p>and more to come ...........".getBytes(US_ASCII);
    while (!listener.isClosed()) {
      try (Socket socket = listener.accept()) {
        BufferedReader request = new BufferedReader(new InputStreamReader(socket.getInputStream(), US_ASCII));
        String requestLine = request.readLine();
        for (String header = requestLine; header != null && !header.isEmpty(); header = request.readLine()) {
          // the whole request is read, so that closing the socket sends no reset that could overtake the answer
        }
        OutputStream out = socket.getOutputStream();
        String head = "HTTP/1.1 %s\r\nContent-Type: text/html\r\nContent-Length: %d\r\nConnection: close\r\n\r\n";
        if (requestLine.startsWith("GET / ")) {
          out.write(head.formatted("200 OK", 10_000).getBytes(US_ASCII));
          out.write(part, 0, 64);
        } else if (requestLine.startsWith("GET /next ")) {
          out.write(head.formatted("200 OK", 6).getBytes(US_ASCII));
          out.write("<html>".getBytes(US_ASCII));
        } else {
          out.write(head.formatted("404 Not Found", 0).getBytes(US_ASCII));
        }
        out.flush();
      } catch (IOException e) {
        return; // closed at the end of the test
      }
    }
  }

  @Test
  void anHttpsUrlOnAPlainHttpPortIsGivenUpAtOnce() {
    server.start();
    String origin = "https://localhost:" + server.port(); // WireMock's plain-HTTP port
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary = Crawler.create(settings().set(Setting.ROBOTS_RETRY, Duration.ofMillis(50)).build(), sink)
        .run(List.of(origin + "/"));
    String reason = summary.givenUp().get(origin);
    assertTrue(reason != null && reason.startsWith("the server does not speak TLS on this port"),
        summary.givenUp().toString());
    assertEquals(ErrorKind.ORIGIN_UNREACHABLE, sink.get(origin + "/").errorKind());
  }

  @Test
  void withRobotsTxtIgnoredAnUntrustedCertificateIsAPageErrorThatIsNotRetried() {
    server.start();
    Html.serve(server, "/", Html.page("home"));
    String seed = "https://localhost:" + server.httpsPort() + "/";
    CollectingSink sink = new CollectingSink();
    CrawlSummary summary = Crawler.create(settings().set(Setting.OBEY_ROBOTS, false).build(), sink)
        .run(List.of(seed));
    assertEquals(ErrorKind.TLS, sink.get(seed).errorKind());
    assertEquals(1, sink.get(seed).attempts());
    assertEquals(0, summary.retries());
  }
}

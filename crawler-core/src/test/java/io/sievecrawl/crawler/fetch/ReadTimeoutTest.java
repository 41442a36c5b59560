package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * fetch.read-timeout ends every read that waits too long, wherever it waits: the TLS handshake, the response's head,
 * its body, and the second exchange on a kept connection. The call timeout is an hour, so a read timeout lost
 * anywhere would hold the fetch far past the test's own limit.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReadTimeoutTest {
  private static final Duration READ_TIMEOUT = Duration.ofMillis(300);
  private static final String PAGE = "<html><title>page</title></html>";

  private final StallingServer server = new StallingServer();
  private final PageFetcher fetcher = PageFetcher.builder(CrawlSettings.builder()
      .set(Setting.READ_TIMEOUT, READ_TIMEOUT).set(Setting.CALL_TIMEOUT, Duration.ofHours(1)).build(),
      Clock.systemUTC(), Ticker.SYSTEM).build();

  @AfterEach
  void close() throws IOException {
    fetcher.close();
    server.close();
  }

  @Test
  void aHeadThatNeverComesEndsAtTheReadTimeout() throws IOException {
    server.start(Step.READ_REQUEST_AND_STALL);
    assertTimedOut(fetcher.fetch(url("http", "/"), true));
  }

  @Test
  void aBodyThatStopsHalfWayEndsAtTheReadTimeout() throws IOException {
    server.start(Step.ANSWER_HALF_AND_STALL);
    FetchResponse response = fetcher.fetch(url("http", "/"), true);
    assertTimedOut(response);
    assertEquals(200, response.status());
  }

  @Test
  void theSecondExchangeOnAKeptConnectionEndsAtTheReadTimeout() throws IOException {
    server.start(Step.ANSWER, Step.READ_REQUEST_AND_STALL);
    FetchResponse first = fetcher.fetch(url("http", "/"), true);
    assertEquals(200, first.status());
    assertEquals(null, first.errorKind());
    assertTimedOut(fetcher.fetch(url("http", "/next"), true));
    assertEquals(1, fetcher.connectionsOpened(), "both exchanges went over one connection");
  }

  @Test
  void aTlsHandshakeThatNeverAnswersEndsAtTheReadTimeout() throws IOException {
    server.start(Step.READ_REQUEST_AND_STALL); // the client's hello is read, and never answered
    assertTimedOut(fetcher.fetch(url("https", "/"), true));
  }

  private Url url(String scheme, String path) {
    return Url.ofCanonical(scheme + "://127.0.0.1:" + server.port() + path);
  }

  private static void assertTimedOut(FetchResponse response) {
    assertEquals(ErrorKind.TIMEOUT, response.errorKind(), response.error());
    assertTrue(response.millis() >= READ_TIMEOUT.toMillis(), "ended after " + response.millis() + " ms");
  }

  /** What the server does on its one connection, request by request. */
  private enum Step { ANSWER, ANSWER_HALF_AND_STALL, READ_REQUEST_AND_STALL }

  /**
   * A server on loopback that accepts one connection and plays its steps on it; a stalled step holds the connection
   * open, silent, until the server is closed.
   */
  private static final class StallingServer implements AutoCloseable {
    private final ServerSocket listener;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private Thread thread;

    StallingServer() {
      try {
        listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    int port() {
      return listener.getLocalPort();
    }

    void start(Step... steps) {
      thread = Thread.ofPlatform().daemon().name("stalling-server").start(() -> serve(steps));
    }

    private void serve(Step[] steps) {
      try (Socket socket = listener.accept()) {
        accepted.add(socket);
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        for (Step step : steps) {
          readRequestHead(in);
          byte[] body = PAGE.getBytes(StandardCharsets.US_ASCII);
          String head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + body.length + "\r\n\r\n";
          switch (step) {
            case ANSWER -> {
              out.write(head.getBytes(StandardCharsets.US_ASCII));
              out.write(body);
              out.flush();
            }
            case ANSWER_HALF_AND_STALL -> {
              out.write(head.getBytes(StandardCharsets.US_ASCII));
              out.write(body, 0, body.length / 2);
              out.flush();
              in.readAllBytes(); // until the client gives up and closes, or the server is closed
            }
            case READ_REQUEST_AND_STALL -> in.readAllBytes();
          }
        }
      } catch (IOException e) {
        // closed by the client or by close(): the test's assertions are on the fetcher's side
      }
    }

    /** Reads up to the blank line that ends a request's head, or whatever a TLS client sends first. */
    private static void readRequestHead(InputStream in) throws IOException {
      int matched = 0;
      int b;
      while (matched < 4 && (b = in.read()) >= 0) {
        if (b == 0x16 && matched == 0) { // a TLS record: nothing here will answer it
          return;
        }
        matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
      }
    }

    @Override
    public void close() throws IOException {
      listener.close();
      for (Socket socket : accepted) {
        socket.close();
      }
      if (thread != null) {
        try {
          thread.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}

package io.sievecrawl.crawler.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sievecrawl.crawler.fetch.CaptureBuffer;
import io.sievecrawl.crawler.fetch.Exchange;
import io.sievecrawl.crawler.fetch.Revalidation;
import io.sievecrawl.sieve.testing.FakeClock;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import okio.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

/** Which answers to a revisit are archived as revisit records: only a 2xx repeats a capture's payload. */
class WarcRevisitStatusTest {
  private static final Map<String, List<String>> INFO = Map.of("software", List.of("test"));
  private static final String URL = "https://example.com/removed";
  private static final String NOT_FOUND_PAGE = "<html><body>Not found</body></html>";
  private final FakeClock clock = new FakeClock();

  @TempDir
  Path dir;

  @Test
  void aSecondNotFoundWithTheSamePageIsAResponseNotAnIdenticalPayloadRevisit() throws IOException {
    String digest = firstCaptureDigest("HTTP/1.1 404 Not Found");
    record(exchange("HTTP/1.1 404 Not Found", new Revalidation(null, null, digest, clock.instant())));
    assertEquals(List.of("response", "response"), responseTypes(), "a 404 never refers to an earlier capture");
  }

  @Test
  void aSecondOkWithTheSamePayloadIsAnIdenticalPayloadRevisit() throws IOException {
    String digest = firstCaptureDigest("HTTP/1.1 200 OK");
    record(exchange("HTTP/1.1 200 OK", new Revalidation(null, null, digest, clock.instant())));
    assertEquals(List.of("response", "revisit"), responseTypes());
  }

  /** Archives a first visit answered with {@code status} and the page; returns the payload digest recorded. */
  private String firstCaptureDigest(String status) throws IOException {
    record(exchange(status, null));
    try (WarcReader reader = new WarcReader(files().get(0))) {
      for (WarcRecord record : reader) {
        if (record instanceof WarcResponse response) {
          return response.payloadDigest().orElseThrow().prefixedBase32();
        }
      }
    }
    throw new AssertionError("no response record");
  }

  private void record(Exchange exchange) throws IOException {
    try (WarcArchive archive = WarcArchive.open(dir, "crawl", 1_000_000_000L, INFO, clock)) {
      archive.record(exchange);
    }
  }

  private Exchange exchange(String statusLine, Revalidation last) throws IOException {
    byte[] body = NOT_FOUND_PAGE.getBytes(StandardCharsets.US_ASCII);
    CaptureBuffer buffer = new CaptureBuffer(dir);
    Buffer source = new Buffer().write(body);
    buffer.append(source, 0, source.size());
    byte[] request = "GET /removed HTTP/1.1\r\nHost: example.com\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    byte[] response = (statusLine + "\r\nContent-Type: text/html\r\nContent-Length: " + body.length + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
    return new Exchange(URL, clock.instant(), InetAddress.getLoopbackAddress(), request, response, buffer, null, last);
  }

  /** The types of the records other than warcinfo and request, over every file, in order. */
  private List<String> responseTypes() throws IOException {
    List<String> types = new ArrayList<>();
    for (Path file : files()) {
      try (WarcReader reader = new WarcReader(file)) {
        for (WarcRecord record : reader) {
          if (!record.type().equals("warcinfo") && !record.type().equals("request")) {
            types.add(record.type());
          }
        }
      }
    }
    return types;
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.filter(f -> f.getFileName().toString().endsWith(".warc.gz")).sorted().toList();
    }
  }
}

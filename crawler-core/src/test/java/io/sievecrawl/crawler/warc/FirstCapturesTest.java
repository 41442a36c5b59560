package io.sievecrawl.crawler.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sievecrawl.crawler.fetch.CaptureBuffer;
import io.sievecrawl.crawler.fetch.Exchange;
import io.sievecrawl.crawler.fetch.StoredAs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import okio.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcDigest;

/** The digests of first captures: bounded, the least recently met forgotten first; 2xx, whole, non-empty only. */
class FirstCapturesTest {
  private static final Instant T = Instant.parse("2026-11-28T00:00:00Z");

  @TempDir
  Path dir;

  private Exchange exchange(String url, String head, String body) throws Exception {
    CaptureBuffer buffer = new CaptureBuffer(dir);
    Buffer bytes = new Buffer().writeUtf8(body);
    buffer.append(bytes, 0, bytes.size());
    return new Exchange(url, T, null, new byte[0], (head + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1), buffer,
        null);
  }

  private static RecordDigests digests(int payload) {
    byte[] sha1 = new byte[20];
    sha1[0] = (byte) payload;
    WarcDigest none = new WarcDigest("sha1", new byte[20]);
    return new RecordDigests(none, new WarcDigest("sha1", sha1), none, none);
  }

  @Test
  void pastItsCapacityTheLeastRecentlyMetDigestIsForgotten() throws Exception {
    FirstCaptures captures = new FirstCaptures(2);
    captures.captured(exchange("http://a/1", "HTTP/1.1 200 OK", "one"), digests(1), T);
    captures.captured(exchange("http://a/2", "HTTP/1.1 200 OK", "two"), digests(2), T);
    assertEquals(new StoredAs("http://a/1", T), captures.repeated(exchange("http://b/1", "HTTP/1.1 200 OK", "one"),
        digests(1)), "payload 1 met again: now the most recent");
    captures.captured(exchange("http://a/3", "HTTP/1.1 200 OK", "three"), digests(3), T);
    assertNull(captures.repeated(exchange("http://b/2", "HTTP/1.1 200 OK", "two"), digests(2)), "payload 2 forgotten");
    assertEquals("http://a/1", captures.repeated(exchange("http://c/1", "HTTP/1.1 200 OK", "one"), digests(1)).uri());
    assertEquals(2, captures.saved()[0]);
    assertEquals(6, captures.saved()[1], "the bytes of two copies of \"one\"");
  }

  @Test
  void onlyWhole2xxPayloadsCount() throws Exception {
    FirstCaptures captures = new FirstCaptures(10);
    captures.captured(exchange("http://a/404", "HTTP/1.1 404 Not Found", "gone"), digests(1), T);
    assertNull(captures.repeated(exchange("http://a/404b", "HTTP/1.1 404 Not Found", "gone"), digests(1)));
    captures.captured(exchange("http://a/empty", "HTTP/1.1 200 OK", ""), digests(2), T);
    assertNull(captures.repeated(exchange("http://a/empty2", "HTTP/1.1 200 OK", ""), digests(2)));
    assertNull(new FirstCaptures(0).repeated(exchange("http://a/x", "HTTP/1.1 200 OK", "x"), digests(3)));
  }
}

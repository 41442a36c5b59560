package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import okio.Buffer;
import org.junit.jupiter.api.Test;

class BodiesTest {
  private static final byte[] PAGE = ("<html><a href=\"/first\">first</a>" + "<p>filler</p>".repeat(5_000)
      + "</html>").getBytes(StandardCharsets.UTF_8);

  @Test
  void aBodyOfExactlyTheCapIsWholeAndOneByteMoreIsTruncated() throws IOException {
    Bodies.Raw exact = Bodies.read(new Buffer().write(new byte[1000]), 1000, true);
    assertEquals(1000, exact.length());
    assertFalse(exact.truncated());
    Bodies.Raw over = Bodies.read(new Buffer().write(new byte[1001]), 1000, true);
    assertEquals(1000, over.length());
    assertEquals(1000, over.bytes().size());
    assertTrue(over.truncated());
  }

  @Test
  void aBodyNotKeptIsOnlyCounted() throws IOException {
    Bodies.Raw counted = Bodies.read(new Buffer().write(new byte[50_000]), 100_000, false);
    assertEquals(50_000, counted.length());
    assertEquals(0, counted.bytes().size());
  }

  @Test
  void aBodyThatBreaksOffKeepsWhatCameBeforeTheBreakOrThrowsForStrictReaders() {
    IOException reset = new IOException("connection reset");
    Bodies.Raw part = Bodies.readUntilCut(okio.Okio.buffer(breakingAfter(200, reset)), 1_000, true, true);
    assertEquals(200, part.length());
    assertEquals(200, part.bytes().size());
    assertFalse(part.truncated(), "cut by the network, not by the cap");
    assertEquals(reset, part.cutOff());
    assertEquals(null, Bodies.readUntilCut(new Buffer().write(new byte[10]), 1_000, true, true).cutOff());
    assertThrows(IOException.class, () -> Bodies.read(okio.Okio.buffer(breakingAfter(200, reset)), 1_000, true));
  }

  @Test
  void thePayloadDigestIsTheSha1OfTheWholeBodyAndOnlyWhenAskedFor() throws IOException {
    byte[] body = "<html>hello</html>".getBytes(StandardCharsets.UTF_8);
    String sha1 = "sha1:O57NSEYVH37NN5YSIJIQGZF2VAMOK4GK"; // python3: base64.b32encode(hashlib.sha1(body).digest())
    assertEquals(sha1, Bodies.readUntilCut(new Buffer().write(body), 1_000, true, true).payloadDigest());
    assertEquals(null, Bodies.readUntilCut(new Buffer().write(body), 1_000, true, false).payloadDigest(),
        "not computed for a page no record needs it for");
    assertEquals(null, Bodies.read(new Buffer().write(body), 1_000, true).payloadDigest(), "robots.txt: none");
    assertEquals(null, Bodies.readUntilCut(new Buffer().write(body), 10, true, true).payloadDigest(),
        "a body cut at the cap has no digest of the whole");
  }

  /** A source that gives {@code bytes} zeros, 100 at a time, then fails. */
  private static okio.Source breakingAfter(int bytes, IOException failure) {
    return new okio.Source() {
      private int given;

      @Override
      public long read(Buffer sink, long byteCount) throws IOException {
        if (given >= bytes) {
          throw failure;
        }
        int n = (int) Math.min(100, Math.min(byteCount, bytes - given));
        sink.write(new byte[n]);
        given += n;
        return n;
      }

      @Override
      public okio.Timeout timeout() {
        return okio.Timeout.NONE;
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void gzipIsDecodedAndACutOffStreamGivesWhatWasDecodedBeforeTheCut() throws IOException {
    byte[] gz = gzip(incompressible(PAGE));
    Bodies.Decoded whole = Bodies.decode(new Buffer().write(gz), "gzip", 10_000_000);
    assertArrayEquals(incompressible(PAGE), whole.bytes());
    assertFalse(whole.truncated());

    Bodies.Raw cut = Bodies.read(new Buffer().write(gz), gz.length / 2, true);
    assertTrue(cut.truncated());
    Bodies.Decoded part = Bodies.decode(cut.bytes(), "gzip", 10_000_000);
    assertTrue(part.bytes().length > 1_000, "most of the first half decodes");
    assertArrayEquals(Arrays.copyOf(incompressible(PAGE), part.bytes().length), part.bytes());
  }

  @Test
  void decodingStopsAtTheCapAgainstBombs() throws IOException {
    byte[] bomb = gzip(new byte[50_000_000]); // 50 MB of zeros in about 50 KB
    Bodies.Decoded decoded = Bodies.decode(new Buffer().write(bomb), "GZIP", 1_000_000);
    assertEquals(1_000_000, decoded.bytes().length);
    assertTrue(decoded.truncated());
  }

  @Test
  void deflateComesWrappedOrBare() throws IOException {
    for (boolean nowrap : new boolean[] {false, true}) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (DeflaterOutputStream deflate = new DeflaterOutputStream(out, new Deflater(6, nowrap))) {
        deflate.write(PAGE);
      }
      assertArrayEquals(PAGE, Bodies.decode(new Buffer().write(out.toByteArray()), "deflate", 10_000_000).bytes());
    }
  }

  @Test
  void identityAndNoCodingPassThroughButUnknownCodingsAndCorruptBodiesAreRefused() throws IOException {
    assertArrayEquals(PAGE, Bodies.decode(new Buffer().write(PAGE), null, 10_000_000).bytes());
    assertArrayEquals(PAGE, Bodies.decode(new Buffer().write(PAGE), " identity ", 10_000_000).bytes());
    assertThrows(IOException.class, () -> Bodies.decode(new Buffer().write(PAGE), "br", 10_000_000));
    assertThrows(IOException.class, () -> Bodies.decode(new Buffer().write(PAGE), "gzip", 10_000_000));
  }

  /** The page with random bytes mixed in, so that half of its gzip form is half of the page. */
  private static byte[] incompressible(byte[] page) {
    byte[] out = page.clone();
    Random random = new Random(7);
    for (int i = 40; i < out.length; i += 2) {
      out[i] = (byte) ('a' + random.nextInt(26));
    }
    return out;
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(bytes);
    }
    return out.toByteArray();
  }
}

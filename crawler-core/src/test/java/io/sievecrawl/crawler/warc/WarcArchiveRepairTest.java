package io.sievecrawl.crawler.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.fetch.CaptureBuffer;
import io.sievecrawl.crawler.fetch.Exchange;
import io.sievecrawl.sieve.testing.FakeClock;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import okio.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;

/**
 * A WARC file left open by a killed process is cut back to its last complete record and closed when the next run
 * opens the directory; serials go on from there.
 */
class WarcArchiveRepairTest {
  private static final Map<String, List<String>> INFO = Map.of("software", List.of("test"));
  private final FakeClock clock = new FakeClock();

  @TempDir
  Path dir;
  @TempDir
  Path killed; // where the abandoned archive wrote: it keeps its lock there, as a killed process would not

  @Test
  void aFileCutInsideItsLastRecordKeepsEveryRecordBeforeItAndValidates() throws Exception {
    Path open = leftOpenWithThreeExchanges();
    long size = Files.size(open);
    try (FileChannel file = FileChannel.open(open, StandardOpenOption.WRITE)) {
      file.truncate(size - 10); // the kill came while the last request record was being written
    }
    assertTrue(JwarcValidate.refusal(List.of(open)).contains("unexpected end of gzip stream"),
        "jwarc validate refuses the file as the kill left it");

    try (WarcArchive archive = WarcArchive.open(dir, "crawl", 1_000_000_000L, INFO, clock)) {
      archive.record(exchange("https://example.com/4", 10));
    }

    List<Path> files = files();
    assertEquals(2, files.size(), files.toString());
    assertTrue(files.get(0).getFileName().toString().matches("crawl-\\d{17}-00001\\.warc\\.gz"));
    assertTrue(files.get(1).getFileName().toString().matches("crawl-\\d{17}-00002\\.warc\\.gz"), "serials go on");
    assertEquals(List.of("warcinfo", "response", "request", "response", "request", "response"), types(files.get(0)));
    assertEquals(List.of("warcinfo", "response", "request"), types(files.get(1)));
    assertEquals(0, validate(files), "the repaired files validate");
  }

  @Test
  void garbageAfterTheLastRecordIsCutAndLeftoverSpillFilesAreRemoved() throws Exception {
    Path open = leftOpenWithThreeExchanges();
    long size = Files.size(open);
    Files.write(open, new byte[] {0x1f, (byte) 0x8b, 8, 0, 1, 2, 3}, StandardOpenOption.APPEND);
    Path spill = Files.createFile(dir.resolve(CaptureBuffer.SPILL_PREFIX + "123.tmp"));

    WarcArchive.open(dir, "crawl", 1_000_000_000L, INFO, clock).close();

    List<Path> files = files();
    assertEquals(1, files.size(), files.toString());
    assertEquals(size, Files.size(files.get(0)), "cut back to the end of the last complete record");
    assertEquals(7, types(files.get(0)).size());
    assertFalse(Files.exists(spill));
  }

  @Test
  void damageFollowedByCompleteRecordsIsRefusedAndNothingIsCut() throws Exception {
    Path open = leftOpenWithThreeExchanges();
    long size = Files.size(open);
    try (FileChannel file = FileChannel.open(open, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      file.read(b, 400);
      file.write(ByteBuffer.wrap(new byte[] {(byte) (b.get(0) ^ 0x55)}), 400); // inside an early record
    }
    WarcDamagedException e = org.junit.jupiter.api.Assertions.assertThrows(WarcDamagedException.class,
        () -> WarcArchive.open(dir, "crawl", 1_000_000_000L, INFO, clock));
    assertTrue(e.getMessage().startsWith(open + " is damaged at byte "), e.getMessage());
    assertTrue(e.getMessage().contains("with complete records after it"), e.getMessage());
    assertEquals(size, Files.size(open), "nothing cut: the records after the damage are kept");
    assertTrue(Files.exists(open), "still open: not renamed as if it were whole");
  }

  @Test
  void aFileWithoutOneCompleteRecordIsRemoved() throws Exception {
    Path open = leftOpenWithThreeExchanges();
    try (FileChannel file = FileChannel.open(open, StandardOpenOption.WRITE)) {
      file.truncate(20); // inside the warcinfo record
    }
    WarcArchive.open(dir, "crawl", 1_000_000_000L, INFO, clock).close();
    assertEquals(List.of(), files());
  }

  @Test
  void filesRotateAtTheSizeLimit() throws Exception {
    try (WarcArchive archive = WarcArchive.open(dir, "crawl", 1_000_000L, INFO, clock)) {
      for (int i = 0; i < 5; i++) {
        archive.record(exchange("https://example.com/" + i, 400_000)); // random bytes: they do not compress
      }
    }
    List<Path> files = files();
    assertEquals(2, files.size(), "a file is closed once it has passed 1 MB: " + files);
    assertEquals(7, types(files.get(0)).size(), "warcinfo and three exchanges (1.2 MB)");
    assertEquals(5, types(files.get(1)).size(), "warcinfo and the last two");
    assertTrue(Files.size(files.get(0)) >= 1_000_000);
    assertEquals("warcinfo", types(files.get(1)).get(0), "each file opens with its warcinfo");
    assertEquals(0, validate(files));
  }

  @Test
  void aBodyTooLargeForTheHeapIsStreamedIntoItsRecord() throws Exception {
    Exchange large = exchange("https://example.com/large", 3_000_000);
    byte[] expected;
    try (var in = java.nio.channels.Channels.newInputStream(large.body().open())) {
      expected = in.readAllBytes();
    }
    try (WarcArchive archive = WarcArchive.open(dir, "crawl", 1_000_000_000L, INFO, clock)) {
      archive.record(large);
    }
    large.body().close();
    try (WarcReader reader = new WarcReader(files().get(0))) {
      reader.next(); // warcinfo
      org.netpreserve.jwarc.WarcResponse response = (org.netpreserve.jwarc.WarcResponse) reader.next().orElseThrow();
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, response.http().body().stream().readAllBytes());
    }
    assertEquals(0, validate(files()));
  }

  @Test
  void oneWriterPerDirectoryAndPrefix() throws Exception {
    try (WarcArchive first = WarcArchive.open(dir, "crawl", 1_000_000_000L, INFO, clock)) {
      IOException refused = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
          () -> WarcArchive.open(dir, "crawl", 1_000_000_000L, INFO, clock));
      assertTrue(refused.getMessage().contains("another sievecrawl is writing WARC files named crawl-*"),
          refused.getMessage());
      WarcArchive.open(dir, "other", 1_000_000_000L, INFO, clock).close(); // another prefix may share the directory
    }
    WarcArchive.open(dir, "crawl", 1_000_000_000L, INFO, clock).close(); // released on close
  }

  @Test
  void anInterruptedThreadStillRecordsAndKeepsItsInterrupt() throws Exception {
    try (WarcArchive archive = WarcArchive.open(dir, "crawl", 1_000_000_000L, INFO, clock)) {
      archive.record(exchange("https://example.com/first", 100));
      Thread.currentThread().interrupt(); // as a robots.txt fetch cut off at the end of a run
      try {
        archive.record(exchange("https://example.com/interrupted", 2_000_000));
        archive.sync();
        assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for the caller");
      } finally {
        Thread.interrupted();
      }
      archive.record(exchange("https://example.com/after", 100));
    }
    assertEquals(List.of("warcinfo", "response", "request", "response", "request", "response", "request"),
        types(files().get(0)));
    assertEquals(0, validate(files()));
  }

  /** Three exchanges written and forced to disk by an archive that is then abandoned, its file still open. */
  private Path leftOpenWithThreeExchanges() throws IOException {
    WarcArchive archive = WarcArchive.open(killed, "crawl", 1_000_000_000L, INFO, clock);
    for (int i = 1; i <= 3; i++) {
      archive.record(exchange("https://example.com/" + i, 1000 * i));
    }
    archive.sync(); // never closed, as after kill -9
    Path open;
    try (Stream<Path> entries = Files.list(killed)) {
      open = entries.filter(f -> f.toString().endsWith(".warc.gz.open")).findFirst().orElseThrow();
    }
    return Files.copy(open, dir.resolve(open.getFileName()));
  }

  private Exchange exchange(String url, int bodySize) throws IOException {
    byte[] body = new byte[bodySize];
    new Random(bodySize).nextBytes(body);
    CaptureBuffer buffer = new CaptureBuffer(dir);
    Buffer source = new Buffer().write(body);
    buffer.append(source, 0, source.size());
    String path = url.substring(url.indexOf('/', 8));
    byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: example.com\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] response = ("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: " + bodySize
        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    return new Exchange(url, clock.instant(), InetAddress.getLoopbackAddress(), request, response, buffer, null);
  }

  /** The WARC files (closed or open), not the lock, the index or its parts. */
  private List<Path> files() throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.filter(f -> f.getFileName().toString().contains(".warc.gz")).sorted().toList();
    }
  }

  private static List<String> types(Path file) throws IOException {
    List<String> types = new ArrayList<>();
    try (WarcReader reader = new WarcReader(file)) {
      for (WarcRecord record : reader) {
        types.add(record.type());
      }
    }
    return types;
  }

  private static int validate(List<Path> files) throws Exception {
    return JwarcValidate.run(files);
  }
}

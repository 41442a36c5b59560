package io.sievecrawl.crawler.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.fetch.CaptureBuffer;
import io.sievecrawl.crawler.fetch.Exchange;
import io.sievecrawl.sieve.testing.FakeClock;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import okio.Buffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A WACZ is never made of damaged WARC files: every record is checked against its CRC-32 and every index line
 * against the file as the package reads it, and a file cut off, changed, or older than its cached index is refused
 * naming the byte where the damage is.
 */
class WaczDamageTest {
  private static final Map<String, List<String>> INFO = Map.of("software", List.of("test"));
  private final FakeClock clock = new FakeClock();

  @TempDir
  Path dir;
  private Path warc;
  private Path wacz;
  private List<long[]> records; // offset and length of each indexed record

  @BeforeEach
  void archiveAndIndex() throws Exception {
    try (WarcArchive archive = WarcArchive.open(dir, "crawl", 1_000_000_000L, INFO, clock)) {
      for (int i = 1; i <= 4; i++) {
        archive.record(exchange("https://example.com/" + i, 20_000 * i));
      }
    } // closed: indexed into .index/ and index.cdxj
    try (Stream<Path> files = Files.list(dir)) {
      warc = files.filter(f -> f.toString().endsWith(".warc.gz")).findFirst().orElseThrow();
    }
    records = new ArrayList<>();
    for (String line : WarcIndex.indexedLines(warc)) {
      records.add(new long[] {WarcFileCheck.field(line, "offset"), WarcFileCheck.field(line, "length")});
    }
    records.sort((a, b) -> Long.compare(a[0], b[0]));
    assertEquals(4, records.size());
    wacz = dir.resolveSibling(dir.getFileName() + ".wacz");
  }

  @Test
  void intactFilesArePackaged() throws IOException {
    assertEquals(1, WaczPackage.write(dir, wacz, "test", clock).warcFiles());
  }

  @Test
  void aFileCutInHalfIsRefusedWhereTheCutRecordStarts() throws IOException {
    long size = Files.size(warc);
    long[] cut = records.stream().filter(r -> r[0] < size / 2 && r[0] + r[1] > size / 2).findFirst().orElseThrow();
    truncate(size / 2);
    WarcDamagedException e = refused();
    assertEquals(warc + " is damaged at byte " + cut[0] + ": the file ends inside the record that starts there (the"
        + " file has " + size / 2 + " bytes): it was cut off", e.getMessage());
  }

  @Test
  void flippedBytesAreRefusedAtTheRecordTheyChanged() throws IOException {
    long[] third = records.get(2);
    try (RandomAccessFile file = new RandomAccessFile(warc.toFile(), "rw")) {
      long at = third[0] + third[1] / 2;
      file.seek(at);
      int b = file.read();
      file.seek(at);
      file.write(b ^ 0x5a);
    }
    WarcDamagedException e = refused();
    assertTrue(e.getMessage().startsWith(warc + " is damaged at byte " + third[0] + ": the record there "),
        e.getMessage());
  }

  @Test
  void aFileCutAtARecordsEndIsRefusedByTheIndexMadeOfItWhole() throws IOException {
    long[] last = records.get(3);
    truncate(last[0]); // every record before it whole: only the cached index knows the file was longer
    WarcDamagedException e = refused();
    assertEquals(warc + " is damaged at byte " + last[0] + ": the index holds a record of " + last[1] + " bytes"
        + " there, past the end of the file (" + last[0] + " bytes): the file was cut off after it was indexed in "
        + WarcIndex.sidecarOf(warc), e.getMessage());
  }

  @Test
  void aFileDamagedBeforeItWasIndexedIsRefusedNamingTheByte() throws IOException {
    Files.delete(WarcIndex.sidecarOf(warc));
    long[] second = records.get(1);
    try (RandomAccessFile file = new RandomAccessFile(warc.toFile(), "rw")) {
      file.seek(second[0]);
      file.write("garbage!".getBytes(StandardCharsets.US_ASCII)); // the record's gzip header is gone
    }
    WarcDamagedException e = refused();
    assertEquals(warc + " is damaged at byte " + second[0] + ": no record starts there (a record is a gzip member,"
        + " which starts with 1f 8b)", e.getMessage());
  }

  private WarcDamagedException refused() {
    WarcDamagedException e = assertThrows(WarcDamagedException.class,
        () -> WaczPackage.write(dir, wacz, "test", clock));
    assertFalse(Files.exists(wacz), "no package");
    assertFalse(Files.exists(wacz.resolveSibling(wacz.getFileName() + ".tmp")), "no partial package left");
    return e;
  }

  private void truncate(long length) throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(warc.toFile(), "rw")) {
      file.setLength(length);
    }
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
}

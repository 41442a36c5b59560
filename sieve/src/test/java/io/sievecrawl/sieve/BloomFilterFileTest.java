package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BloomFilterFileTest {
  private final UrlCorpus urls = new UrlCorpus(3);
  private BloomFilter filter;
  private byte[] bytes;

  @BeforeEach
  void writeAFilter() throws IOException {
    filter = BloomFilter.create(BloomSizing.of(20_000, 0.01), 1234);
    for (int i = 0; i < 20_000; i++) {
      filter.add(urls.url(i));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BloomFilterFile.write(filter, out);
    bytes = out.toByteArray();
  }

  @Test
  void aRoundTripKeepsEveryAnswerAndTheParameters(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("seen.bloom");
    BloomFilterFile.write(filter, file);
    BloomFilter copy = BloomFilterFile.read(file);

    assertEquals(filter.sizing(), copy.sizing());
    assertEquals(1234, copy.seed());
    assertEquals(filter.bitCount(), copy.bitCount());
    assertEquals(filter.approximateElementCount(), copy.approximateElementCount());
    for (int i = 0; i < 40_000; i++) { // the added half and as many never added
      String url = urls.url(i);
      assertEquals(filter.mightContain(url), copy.mightContain(url), url);
    }
    assertFalse(copy.add(urls.url(5)), "the copy knows what was added before");
    assertTrue(copy.add(urls.url(40_000)));
  }

  @Test
  void theFileHasTheDocumentedSize() {
    assertEquals(BloomFilterFile.HEADER_BYTES + filter.bitSize() / 8 + BloomFilterFile.TRAILER_BYTES, bytes.length);
  }

  @Test
  void aTruncatedFileIsRefused(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("truncated.bloom");
    Files.write(file, Arrays.copyOf(bytes, bytes.length - 100));
    FilterFileException e = assertThrows(FilterFileException.class, () -> BloomFilterFile.read(file));
    assertTrue(e.getMessage().startsWith(file + ": truncated: the file ends early"), e.getMessage());
  }

  @Test
  void aFileCutInsideTheHeaderIsRefused() {
    FilterFileException e = assertThrows(FilterFileException.class,
        () -> BloomFilterFile.read(new ByteArrayInputStream(Arrays.copyOf(bytes, 20))));
    assertTrue(e.getMessage().startsWith("truncated"), e.getMessage());
  }

  @Test
  void aFlippedBitInTheDataIsRefused() {
    byte[] corrupt = bytes.clone();
    corrupt[BloomFilterFile.HEADER_BYTES + 500] ^= 0x10;
    FilterFileException e = assertThrows(FilterFileException.class,
        () -> BloomFilterFile.read(new ByteArrayInputStream(corrupt)));
    assertTrue(e.getMessage().startsWith("checksum mismatch: the file is corrupted"), e.getMessage());
  }

  @Test
  void aCorruptedHeaderIsRefused() {
    byte[] corrupt = bytes.clone();
    corrupt[40] ^= 0x01; // inside the seed
    FilterFileException e = assertThrows(FilterFileException.class,
        () -> BloomFilterFile.read(new ByteArrayInputStream(corrupt)));
    assertTrue(e.getMessage().startsWith("checksum mismatch"), e.getMessage());
  }

  @Test
  void anImpossibleBlockCountIsRefusedBeforeAnythingIsAllocated() {
    byte[] corrupt = bytes.clone();
    corrupt[28] = 0x7f; // blocks: a huge number
    FilterFileException e = assertThrows(FilterFileException.class,
        () -> BloomFilterFile.read(new ByteArrayInputStream(corrupt)));
    assertTrue(e.getMessage().startsWith("corrupt header: "), e.getMessage());
  }

  @Test
  void anotherKindOfFileIsRefusedByItsMagic() {
    FilterFileException e = assertThrows(FilterFileException.class,
        () -> BloomFilterFile.read(new ByteArrayInputStream("PK\u0003\u0004 not a filter".getBytes())));
    assertEquals("not a sievecrawl filter file (starts with 0x504b0304, expected 0x53564246 \"SVBF\")",
        e.getMessage());
  }

  @Test
  void aNewerVersionIsRefusedByNumber() {
    byte[] newer = bytes.clone();
    newer[7] = 3;
    FilterFileException e = assertThrows(FilterFileException.class,
        () -> BloomFilterFile.read(new ByteArrayInputStream(newer)));
    assertEquals("unsupported filter file version 3 (this build reads version 2)", e.getMessage());
  }

  @Test
  void aWrongSetBitCountIsRefusedEvenWithAMatchingChecksum() {
    byte[] corrupt = bytes.clone();
    int countAt = corrupt.length - BloomFilterFile.TRAILER_BYTES;
    corrupt[countAt + 7] ^= 0x01;
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(corrupt, 0, corrupt.length - 4);
    java.nio.ByteBuffer.wrap(corrupt).putInt(corrupt.length - 4, (int) crc.getValue());
    FilterFileException e = assertThrows(FilterFileException.class,
        () -> BloomFilterFile.read(new ByteArrayInputStream(corrupt)));
    assertTrue(e.getMessage().startsWith("corrupt file: the trailer says"), e.getMessage());
  }

  @Test
  void aFileWrittenWhileAddsGoOnHoldsEverythingAddedBeforeAndCountsItsOwnBits() throws Exception {
    BloomFilter live = BloomFilter.create(BloomSizing.of(200_000, 0.01), 99);
    for (int i = 0; i < 100_000; i++) {
      live.add(urls.url(i));
    }
    java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
    Thread adder = Thread.ofPlatform().start(() -> {
      for (int i = 100_000; writing.get() && i < 200_000; i++) {
        live.add(urls.url(i));
      }
    });
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BloomFilterFile.write(live, out);
    writing.set(false);
    adder.join();
    BloomFilter copy = BloomFilterFile.read(new ByteArrayInputStream(out.toByteArray())); // its bit count checks out
    for (int i = 0; i < 100_000; i++) {
      assertTrue(copy.mightContain(urls.url(i)), "added before the write began: " + i);
    }
  }

  @Test
  void trailingBytesAfterTheChecksumAreRefused(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("long.bloom");
    Files.write(file, Arrays.copyOf(bytes, bytes.length + 1));
    FilterFileException e = assertThrows(FilterFileException.class, () -> BloomFilterFile.read(file));
    assertEquals(file + ": unexpected bytes after the checksum", e.getMessage());
  }
}

package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;
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
  void aFullFilterTakesItsBitsAndARunHeaderPerChunk() {
    assertTrue(Arrays.stream(filter.words()).noneMatch(w -> w == 0), "at capacity, about half the bits are set");
    long chunks = (filter.words().length + BloomFilterFile.CHUNK_WORDS - 1) / BloomFilterFile.CHUNK_WORDS;
    assertEquals(BloomFilterFile.HEADER_BYTES + filter.bitSize() / 8 + chunks * BloomFilterFile.RUN_HEADER_BYTES
        + BloomFilterFile.TRAILER_BYTES, bytes.length);
  }

  @Test
  void emptySparseAndFullFiltersComeBackBitForBit() throws IOException {
    BloomFilter sparse = BloomFilter.create(BloomSizing.of(1_000_000, 0.001), 7);
    BloomFilter empty = BloomFilter.create(sparse.sizing(), 7); // 246,528 words: zero runs longer than MAX_RUN
    for (int i = 0; i < 300; i++) {
      sparse.add(urls.url(i));
    }
    for (BloomFilter original : new BloomFilter[] {empty, sparse, filter}) {
      assertSameFilter(original, roundTrip(original));
    }
  }

  @Test
  void runsAtTheEdgesOfChunksAndOfTheLongestRunComeBack() throws IOException {
    BloomSizing sizing = BloomSizing.of(100_000, 0.001); // 24,656 words
    long[] words = new long[Math.toIntExact(sizing.blocks() * 8)];
    int max = BloomFilterFile.MAX_RUN;
    int chunk = BloomFilterFile.CHUNK_WORDS;
    assertTrue(words.length > 3 * chunk && words.length < max, "else the indexes below miss");
    words[0] = -1; // a literal run at the start,
    words[chunk - 1] = 1; // one that a chunk's end splits,
    words[chunk] = 2;
    words[2 * chunk + 5] = 3; // one after zeros that cross a chunk's end
    BloomFilter edges = restored(sizing, words);
    assertSameFilter(edges, roundTrip(edges));
    words[words.length - 1] = Long.MIN_VALUE; // and a literal at the very end
    edges = restored(sizing, words);
    assertSameFilter(edges, roundTrip(edges));

    BloomSizing large = BloomSizing.of(1_000_000, 0.001); // 246,528 words
    long[] far = new long[Math.toIntExact(large.blocks() * 8)];
    far[max] = 5; // exactly MAX_RUN zeros before it
    far[2 * max + 2] = 6; // MAX_RUN + 1 zeros before it
    BloomFilter sparse = restored(large, far);
    assertSameFilter(sparse, roundTrip(sparse));
  }

  @Test
  void aSparseFilterTakesSpaceForItsSetBitsNotItsSize() throws IOException {
    BloomFilter big = BloomFilter.create(10_000_000, 0.001); // the crawl's default n and p
    for (int i = 0; i < 1_000; i++) {
      big.add(urls.url(i));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BloomFilterFile.write(big, out);
    // Each nonzero word (at most k per URL) costs 8 bytes and at most one run header; the zeros cost a header per
    // MAX_RUN of them, and one for those at the end.
    long words = big.words().length;
    long bound = BloomFilterFile.HEADER_BYTES + BloomFilterFile.TRAILER_BYTES
        + (Long.BYTES + BloomFilterFile.RUN_HEADER_BYTES) * big.sizing().hashCount() * 1_000L
        + BloomFilterFile.RUN_HEADER_BYTES * (words / BloomFilterFile.MAX_RUN + 1);
    assertTrue(out.size() <= bound, out.size() + " bytes, bound " + bound);
    assertEquals(120_212, bound); // k = 10: 0.6% of the 19.7 MB of bits
  }

  @Test
  void aVersion2FileStillReads() throws IOException {
    // Written by the build before version 3: BloomSizing.of(1_000, 0.01), seed 77, the first 500 URLs of urls.
    BloomFilter old;
    try (InputStream in = getClass().getResourceAsStream("filter-v2.bf")) {
      old = BloomFilterFile.read(in);
      assertEquals(-1, in.read());
    }
    assertEquals(BloomSizing.of(1_000, 0.01), old.sizing());
    assertEquals(77, old.seed());
    assertEquals(2_963, old.bitCount());
    for (int i = 0; i < 500; i++) {
      assertTrue(old.mightContain(urls.url(i)), urls.url(i));
    }
    assertSameFilter(old, roundTrip(old)); // and rewritten as version 4
  }

  @Test
  void aRunPastTheFiltersEndIsRefused() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BloomFilterFile.write(BloomFilter.create(BloomSizing.of(1_000, 0.01), 77), out); // 160 words: one zero run
    byte[] corrupt = out.toByteArray();
    assertEquals(160, ByteBuffer.wrap(corrupt).getShort(BloomFilterFile.HEADER_BYTES));
    corrupt[BloomFilterFile.HEADER_BYTES + 3] = 1; // and one literal word
    FilterFileException e = assertThrows(FilterFileException.class,
        () -> BloomFilterFile.read(new ByteArrayInputStream(corrupt)));
    assertEquals("corrupt file: the run at byte 48 (160 zero and 1 literal words from word 0) goes past the"
        + " filter's 160 words", e.getMessage());
  }

  @Test
  void aRunLengthOffByOneIsRefused() throws IOException {
    BloomFilter sparse = BloomFilter.create(BloomSizing.of(1_000, 0.01), 77);
    sparse.add(urls.url(1));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BloomFilterFile.write(sparse, out);
    for (int field = 0; field < 4; field += 2) { // the first run's zero count, then its literal count
      byte[] corrupt = out.toByteArray();
      corrupt[BloomFilterFile.HEADER_BYTES + field + 1]--;
      FilterFileException e = assertThrows(FilterFileException.class,
          () -> BloomFilterFile.read(new ByteArrayInputStream(corrupt)));
      assertTrue(e.getMessage().matches("(corrupt file|checksum mismatch|truncated): .*"), e.getMessage());
    }
  }

  @Test
  void everyTruncationOfARunFileIsRefused() throws IOException {
    BloomFilter sparse = BloomFilter.create(BloomSizing.of(1_000, 0.01), 77);
    for (int i = 0; i < 3; i++) {
      sparse.add(urls.url(i));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BloomFilterFile.write(sparse, out);
    byte[] whole = out.toByteArray();
    for (int length = 0; length < whole.length; length++) {
      byte[] cut = Arrays.copyOf(whole, length);
      FilterFileException e = assertThrows(FilterFileException.class,
          () -> BloomFilterFile.read(new ByteArrayInputStream(cut)));
      assertTrue(e.getMessage().startsWith("truncated: the file ends early"), length + ": " + e.getMessage());
    }
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
    newer[7] = 5;
    FilterFileException e = assertThrows(FilterFileException.class,
        () -> BloomFilterFile.read(new ByteArrayInputStream(newer)));
    assertEquals("unsupported filter file version 5 (this build reads versions 2 to 4)", e.getMessage());
  }

  @Test
  void aVersion3FileReadsAsHashingWholeUrls() throws IOException {
    // Version 3 is version 4 without the hashing field after the seed.
    ByteArrayOutputStream v3 = new ByteArrayOutputStream();
    v3.write(bytes, 0, BloomFilterFile.HEADER_BYTES - 4);
    v3.write(bytes, BloomFilterFile.HEADER_BYTES, bytes.length - BloomFilterFile.HEADER_BYTES - 4);
    byte[] body = v3.toByteArray();
    body[7] = 3;
    CRC32C crc = new CRC32C();
    crc.update(body);
    byte[] file = ByteBuffer.allocate(body.length + 4).put(body).putInt((int) crc.getValue()).array();
    BloomFilter old = BloomFilterFile.read(new ByteArrayInputStream(file));
    assertEquals(BloomFilter.Hashing.URL, old.hashing());
    assertSameFilter(BloomFilterFile.read(new ByteArrayInputStream(bytes)), old);
  }

  @Test
  void aFingerprintHashedFilterKeepsItsHashing() throws IOException {
    BloomFilter filter = BloomFilter.create(BloomSizing.of(1_000, 0.01), 9, BloomFilter.Hashing.FINGERPRINT);
    for (int i = 0; i < 500; i++) {
      filter.add(urls.url(i));
    }
    BloomFilter back = roundTrip(filter);
    assertSameFilter(filter, back);
    for (int i = 0; i < 500; i++) {
      assertTrue(back.mightContainFingerprint(filter.fingerprint(urls.url(i))));
    }
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

  private static BloomFilter roundTrip(BloomFilter original) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BloomFilterFile.write(original, out);
    return BloomFilterFile.read(new ByteArrayInputStream(out.toByteArray()));
  }

  private static BloomFilter restored(BloomSizing sizing, long[] words) {
    return BloomFilter.restore(sizing, 1, BloomFilter.Hashing.URL, words.clone(), Arrays.stream(words).map(Long::bitCount).sum());
  }

  private static void assertSameFilter(BloomFilter expected, BloomFilter actual) {
    assertEquals(expected.sizing(), actual.sizing());
    assertEquals(expected.seed(), actual.seed());
    assertEquals(expected.hashing(), actual.hashing());
    assertEquals(expected.bitCount(), actual.bitCount());
    assertTrue(Arrays.equals(expected.words(), actual.words()), "the same bits");
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.bench.SyntheticSite;
import io.sievecrawl.crawler.warc.WarcArchive;
import io.sievecrawl.crawler.warc.WarcDirectory;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sievecrawl wacz} refuses what it cannot package whole, in one line that says what is wrong and where. */
class WaczCommandTest {
  @TempDir
  Path dir;
  private Path warcDir;
  private Path wacz;

  @BeforeEach
  void crawlIntoWarcFiles() throws IOException {
    warcDir = dir.resolve("warc");
    wacz = dir.resolve("crawl.wacz");
    try (SyntheticSite site = SyntheticSite.start(20, 4)) {
      Cmd cmd = Cmd.run("crawl", site.rootUrl(), "-o", dir.resolve("out.jsonl").toString(), "--log-file",
          dir.resolve("log").toString(), "--delay", "0ms", "--warc", warcDir.toString());
      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
    }
  }

  private Path warcFile() throws IOException {
    try (Stream<Path> files = Files.list(warcDir)) {
      return files.filter(f -> f.toString().endsWith(".warc.gz")).findFirst().orElseThrow();
    }
  }

  @Test
  void aFileCutInHalfIsRefusedNamingItAndTheByte() throws IOException {
    Path file = warcFile();
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(raf.length() / 2);
    }
    Cmd cmd = Cmd.run("wacz", warcDir.toString(), "-o", wacz.toString());
    assertEquals(ExitCodes.JOB, cmd.exitCode(), cmd.toString());
    assertEquals(1, cmd.err().lines().count(), cmd.err());
    assertTrue(cmd.err().matches("sievecrawl: " + java.util.regex.Pattern.quote(file.toString()) + " is damaged at"
        + " byte \\d+: the file ends inside the record that starts there \\(the file has \\d+ bytes\\): it was cut"
        + " off; nothing was packaged\n"), cmd.err());
    assertFalse(Files.exists(wacz));
  }

  @Test
  void aDamagedFileLeftOpenIsRefusedWithTheWholeSentence() throws IOException {
    Path file = warcFile();
    Path open = Files.move(file, file.resolveSibling(file.getFileName() + WarcDirectory.OPEN_SUFFIX));
    try (RandomAccessFile raf = new RandomAccessFile(open.toFile(), "rw")) {
      raf.seek(raf.length() / 3);
      raf.write(new byte[64]); // damage in the middle, whole records after it: not what a kill leaves
    }
    Cmd cmd = Cmd.run("wacz", warcDir.toString(), "-o", wacz.toString());
    assertEquals(ExitCodes.JOB, cmd.exitCode(), cmd.toString());
    assertEquals(1, cmd.err().lines().count(), cmd.err());
    assertTrue(cmd.err().startsWith("sievecrawl: " + open + " is damaged at byte "), cmd.err());
    assertTrue(cmd.err().contains(": not the torn end a kill leaves, so nothing was cut; move the file out of "
        + warcDir + " to go on (its records before byte "), cmd.err());
    assertTrue(cmd.err().endsWith(" are intact); nothing was packaged\n"), cmd.err());
  }

  @Test
  void aDirectoryACrawlIsWritingToIsRefused() throws IOException {
    try (WarcArchive writing = WarcArchive.open(warcDir, "sievecrawl", 1_000_000_000L,
        Map.of("software", List.of("test")), Clock.systemUTC())) {
      Cmd cmd = Cmd.run("wacz", warcDir.toString(), "-o", wacz.toString());
      assertEquals(ExitCodes.JOB, cmd.exitCode(), cmd.toString());
      assertEquals("sievecrawl: cannot package " + warcDir + ": a crawl is writing to it: wait for it to end\n",
          cmd.err());
    }
    Cmd after = Cmd.run("wacz", warcDir.toString(), "-o", wacz.toString());
    assertEquals(ExitCodes.OK, after.exitCode(), after.toString());
  }
}

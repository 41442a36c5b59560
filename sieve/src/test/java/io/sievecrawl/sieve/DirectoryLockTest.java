package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryLockTest {
  @TempDir Path dir;

  @Test
  void aHeldLockIsRefusedNamingItsHolderAndTakenAgainOnceReleased() throws IOException {
    Path file = dir.resolve("lock");
    DirectoryLock held = DirectoryLock.take(file, holder -> new IOException("held" + holder));
    assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(file, StandardCharsets.US_ASCII));
    IOException refused = assertThrows(IOException.class,
        () -> DirectoryLock.take(file, holder -> new IOException("held" + holder)));
    assertEquals("held (process " + ProcessHandle.current().pid() + ")", refused.getMessage());
    held.close();
    held.close(); // twice is harmless
    DirectoryLock.take(file, holder -> new IOException("held" + holder)).close();
  }

  @Test
  void aLockFileNamingNoProcessGivesAnEmptyHolder() throws IOException {
    Path file = dir.resolve("lock");
    try (DirectoryLock held = DirectoryLock.take(file, holder -> new IOException("held" + holder))) {
      Files.writeString(file, "not a pid\n", StandardCharsets.US_ASCII); // an older build's empty or foreign file
      IOException refused = assertThrows(IOException.class,
          () -> DirectoryLock.take(file, holder -> new IOException("held" + holder)));
      assertEquals("held", refused.getMessage());
    }
  }

  @Test
  void aLockFileLeftByAnEndedHolderDoesNotBlock() throws IOException {
    Path file = dir.resolve("lock");
    Files.writeString(file, "999999999\n", StandardCharsets.US_ASCII); // what a killed holder leaves
    try (DirectoryLock held = DirectoryLock.take(file, holder -> new IOException("held" + holder))) {
      assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(file, StandardCharsets.US_ASCII));
    }
  }

  @Test
  void locksOnOtherFilesOfOneDirectoryAreApart() throws IOException {
    Files.createDirectories(dir.resolve("warc"));
    try (DirectoryLock crawl = DirectoryLock.take(dir.resolve("lock"), holder -> new IOException("crawl"));
        DirectoryLock warc = DirectoryLock.take(dir.resolve("warc/.crawl.lock"), holder -> new IOException("a"));
        DirectoryLock other = DirectoryLock.take(dir.resolve(".other.lock"), holder -> new IOException("b"))) {
      assertThrows(IOException.class, () -> DirectoryLock.take(dir.resolve("warc/.crawl.lock"),
          holder -> new IOException("a")));
    }
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassArchiveTest {
  @TempDir
  Path dir;

  @AfterEach
  void clear() {
    System.clearProperty("sievecrawl.class-archive");
  }

  @Test
  void marksTheArchiveTheLauncherNamed() throws Exception {
    Path archive = dir.resolve("crawl-1-java25-2-3.jsa");
    System.setProperty("sievecrawl.class-archive", archive.toString());
    ClassArchive.markUseful();
    ClassArchive.markUseful(); // twice: still one mark, no error
    assertTrue(Files.exists(dir.resolve("crawl-1-java25-2-3.jsa.ok")));
    assertFalse(Files.exists(archive), "the archive itself is the JVM's to write");
  }

  @Test
  void doesNothingOutsideTheLauncherOrWhenTheMarkCannotBeWritten() throws Exception {
    ClassArchive.markUseful();
    System.setProperty("sievecrawl.class-archive", dir.resolve("missing/folder/a.jsa").toString());
    ClassArchive.markUseful();
    try (var files = Files.list(dir)) {
      assertTrue(files.findAny().isEmpty());
    }
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeedSpoolTest {
  @TempDir
  Path dir;

  @Test
  void aSpoolLeftByAProcessThatIsGoneIsRemovedAndALiveOnesIsKept() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path leftover = Files.writeString(dir.resolve(SeedSpool.PREFIX + gone.pid() + "-123.tmp"), "http://a.example/\n");
    Path live = Files.writeString(dir.resolve(SeedSpool.PREFIX + ProcessHandle.current().pid() + "-456.tmp"), "x\n");
    Path unrelated = Files.writeString(dir.resolve(SeedSpool.PREFIX + "notes.tmp"), "kept\n");
    Path recent = Files.writeString(dir.resolve(SeedSpool.PREFIX + gone.pid() + "-789.tmp"), "x\n");
    java.nio.file.attribute.FileTime twoHoursAgo = java.nio.file.attribute.FileTime.from(
        java.time.Instant.now().minus(java.time.Duration.ofHours(2)));
    Files.setLastModifiedTime(leftover, twoHoursAgo);
    Files.setLastModifiedTime(live, twoHoursAgo);

    Path spool = SeedSpool.create(dir.resolve("job"));

    assertFalse(Files.exists(leftover), "its process is gone, and it has not been written for an hour");
    assertTrue(Files.exists(live) && Files.exists(unrelated));
    assertTrue(Files.exists(recent), "written lately: perhaps by another machine sharing the folder");
    assertEquals(dir, spool.getParent(), "beside the crawl directory, so that moving it in is a rename");
    assertTrue(spool.getFileName().toString().startsWith(SeedSpool.PREFIX + ProcessHandle.current().pid() + "-"));
  }
}

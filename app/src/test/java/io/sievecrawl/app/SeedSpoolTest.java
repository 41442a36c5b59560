package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.testing.FakeClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
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
    FakeClock clock = new FakeClock();
    FileTime twoHoursAgo = FileTime.from(clock.instant().minus(Duration.ofHours(2)));
    Files.setLastModifiedTime(leftover, twoHoursAgo);
    Files.setLastModifiedTime(live, twoHoursAgo);
    Files.setLastModifiedTime(recent, FileTime.from(clock.instant().minus(Duration.ofMinutes(10))));

    Path spool = SeedSpool.create(dir.resolve("job"), clock);

    assertFalse(Files.exists(leftover), "its process is gone, and it has not been written for an hour");
    assertTrue(Files.exists(live) && Files.exists(unrelated));
    assertTrue(Files.exists(recent), "written lately: perhaps by another machine sharing the folder");
    assertEquals(dir, spool.getParent(), "beside the crawl directory, so that moving it in is a rename");
    assertTrue(spool.getFileName().toString().startsWith(SeedSpool.PREFIX + ProcessHandle.current().pid() + "-"));
  }
}

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

    Path spool = SeedSpool.create(dir.resolve("job"));

    assertFalse(Files.exists(leftover), "its process is gone");
    assertTrue(Files.exists(live) && Files.exists(unrelated));
    assertEquals(dir, spool.getParent(), "beside the crawl directory, so that moving it in is a rename");
    assertTrue(spool.getFileName().toString().startsWith(SeedSpool.PREFIX + ProcessHandle.current().pid() + "-"));
  }
}

package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code mvn test} stays quick: a test that starts sievecrawl in a child JVM, kills a process or starts a real
 * redis-server (or a cluster of them) is an integration test, named {@code *IT}, which failsafe runs in {@code mvn
 * verify} (the README's test command, and CI's) and {@code mvn test} leaves out.
 */
class SlowTestsAreIntegrationTestsTest {
  /** What starts a crawler's child JVM, kills one, or starts Redis, in the test sources of this repository. */
  private static final List<String> SLOW = List.of("ChildProcess.start", "KillLoop.run", "RedisServer.start",
      "RedisCluster.start", "destroyForcibly", "FrontierKillChild");

  @Test
  void noUnitTestStartsAChildJvmOrRedis() throws IOException {
    List<String> slow = new ArrayList<>();
    try (Stream<Path> modules = Files.list(Path.of(".."))) {
      for (Path tests : modules.map(module -> module.resolve("src/test/java")).filter(Files::isDirectory).toList()) {
        try (Stream<Path> files = Files.walk(tests)) {
          for (Path file : files.filter(f -> f.getFileName().toString().endsWith("Test.java")
              && !f.getFileName().toString().equals(getClass().getSimpleName() + ".java")).sorted().toList()) {
            String source = Files.readString(file);
            for (String call : SLOW) {
              if (source.contains(call)) {
                slow.add(Path.of("..").relativize(file) + " (" + call + ")");
                break;
              }
            }
          }
        }
      }
    }
    if (!slow.isEmpty()) {
      fail("unit tests that start a child JVM, kill a process or start Redis; move those tests to a class named"
          + " *IT, which mvn verify runs and mvn test leaves out:\n  " + String.join("\n  ", slow));
    }
  }
}

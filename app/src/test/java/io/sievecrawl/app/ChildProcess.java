package io.sievecrawl.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Starts {@code sievecrawl} (or another main class) in a child JVM on the test's class path, for tests that kill it or limit its heap. */
final class ChildProcess {
  private ChildProcess() {}

  /** A running {@code sievecrawl ARGS...} with {@code jvmOptions}; its standard error goes to {@code stderr}. */
  static Process start(List<String> jvmOptions, Path stderr, String... args) throws IOException {
    return start(Main.class, jvmOptions, stderr, args);
  }

  /** A running {@code main} of another class on the test's class path. */
  static Process start(Class<?> main, List<String> jvmOptions, Path stderr, String... args) throws IOException {
    return start(main, jvmOptions, Map.of(), stderr, args);
  }

  /** As {@link #start(Class, List, Path, String...)}, with {@code environment} added to the child's. */
  static Process start(Class<?> main, List<String> jvmOptions, Map<String, String> environment, Path stderr,
      String... args) throws IOException {
    return start(null, main, jvmOptions, environment, stderr, args);
  }

  /** A running {@code sievecrawl ARGS...} in the working directory {@code directory}. */
  static Process startIn(Path directory, Path stderr, String... args) throws IOException {
    return start(directory, Main.class, List.of(), Map.of(), stderr, args);
  }

  private static Process start(Path directory, Class<?> main, List<String> jvmOptions, Map<String, String> environment,
      Path stderr, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
    builder.environment().putAll(environment);
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    return builder.start();
  }
}

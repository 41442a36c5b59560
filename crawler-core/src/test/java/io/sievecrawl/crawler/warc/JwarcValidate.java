package io.sievecrawl.crawler.warc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** jwarc's own validate tool, run in a child JVM over WARC files, as a user would run it. */
public final class JwarcValidate {
  private JwarcValidate() {}

  /** The tool's exit code (0 when every file validates); its output is printed when it is not 0. */
  public static int run(List<Path> files) throws IOException, InterruptedException {
    Result result = validate(files);
    if (result.code() != 0) {
      System.out.println("jwarc validate: " + result.output());
    }
    return result.code();
  }

  /**
   * What the tool says of files a test expects it to refuse: its output, for the test to assert on (nothing is
   * printed: a refusal provoked on purpose is no news in the build log).
   */
  public static String refusal(List<Path> files) throws IOException, InterruptedException {
    Result result = validate(files);
    if (result.code() == 0) {
      throw new AssertionError("jwarc validate accepted " + files + ": " + result.output());
    }
    return result.output();
  }

  private record Result(int code, String output) {}

  private static Result validate(List<Path> files) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "org.netpreserve.jwarc.tools.WarcTool", "validate"));
    files.forEach(f -> command.add(f.toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try (InputStream out = process.getInputStream()) {
      String output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
      return new Result(process.waitFor(), output);
    }
  }
}

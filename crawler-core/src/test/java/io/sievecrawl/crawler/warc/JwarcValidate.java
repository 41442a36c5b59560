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
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "org.netpreserve.jwarc.tools.WarcTool", "validate"));
    files.forEach(f -> command.add(f.toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try (InputStream out = process.getInputStream()) {
      String output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
      int code = process.waitFor();
      if (code != 0) {
        System.out.println("jwarc validate: " + output);
      }
      return code;
    }
  }
}

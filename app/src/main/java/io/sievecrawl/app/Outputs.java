package io.sievecrawl.app;

import io.sievecrawl.crawler.result.JsonLinesWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Opens the JSON Lines results file of a command. */
final class Outputs {
  private Outputs() {}

  /**
   * A writer to {@code output}, or to {@code stdout} when it is {@code "-"}.
   *
   * @throws UserError with {@link ExitCodes#OUTPUT} if the file cannot be created
   */
  static JsonLinesWriter open(String output, PrintStream stdout) {
    try {
      if (output.equals("-")) {
        return new JsonLinesWriter(stdout, false);
      }
      Path path = Path.of(output);
      if (Files.isDirectory(path)) {
        throw new UserError(ExitCodes.OUTPUT, "cannot write results to " + output + ": it is a directory");
      }
      Path parent = path.toAbsolutePath().getParent();
      if (parent != null && !Files.isDirectory(parent)) {
        throw new UserError(ExitCodes.OUTPUT,
            "cannot write results to " + output + ": folder " + parent + " does not exist");
      }
      return new JsonLinesWriter(new BufferedOutputStream(Files.newOutputStream(path), 1 << 16), true);
    } catch (IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write results to " + output + ": " + e.getMessage());
    }
  }
}

package io.sievecrawl.app;

import io.sievecrawl.crawler.result.JsonLinesWriter;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Opens the JSON Lines results file of a command. */
final class Outputs {
  private Outputs() {}

  /** Standard output that reports a failed write (a closed pipe) instead of swallowing it as PrintStream does. */
  private static final class CheckedStdout extends FilterOutputStream {
    private final PrintStream out;

    CheckedStdout(PrintStream out) {
      super(out);
      this.out = out;
    }

    @Override
    public void write(byte[] bytes, int off, int len) throws IOException {
      out.write(bytes, off, len);
      check();
    }

    @Override
    public void flush() throws IOException {
      check(); // checkError() flushes
    }

    private void check() throws IOException {
      if (out.checkError()) {
        throw new IOException("standard output was closed");
      }
    }
  }

  /**
   * A writer to {@code output}, or to {@code stdout} when it is {@code "-"}.
   *
   * @throws UserError with {@link ExitCodes#OUTPUT} if the file cannot be created
   */
  static JsonLinesWriter open(String output, PrintStream stdout) {
    try {
      if (output.equals("-")) {
        return new JsonLinesWriter(new CheckedStdout(stdout), false);
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

package io.sievecrawl.app;

import io.sievecrawl.crawler.result.JsonLinesWriter;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JSON Lines results of a crawl: a file (or standard output) written one whole line at a time, forced to disk
 * by {@link #sync()} on the crawl's sync interval, and repaired when a kill cut its last line.
 *
 * <p>A new crawl never overwrites results silently: an existing, non-empty file is refused unless the user asks for
 * {@code --overwrite}, and that happens only after every other start-up check has passed. A resumed crawl appends.
 * Something other than a regular file ({@code /dev/null}, a named pipe) is written to as it is, never forced to disk
 * or repaired.
 */
final class ResultsFile implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ResultsFile.class);

  private final String name;
  private final FileOutputStream file; // null for standard output
  private final boolean regularFile;
  private final JsonLinesWriter writer;

  private ResultsFile(String name, FileOutputStream file, boolean regularFile, JsonLinesWriter writer) {
    this.name = name;
    this.file = file;
    this.regularFile = regularFile;
    this.writer = writer;
  }

  /**
   * Checks that {@code output} may receive a new crawl's results, before anything is created.
   *
   * @throws UserError with {@link ExitCodes#OUTPUT} naming the problem
   */
  static void checkNew(String output, boolean overwrite) {
    if (output.equals("-")) {
      return;
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
    try {
      if (!overwrite && Files.exists(path) && Files.size(path) > 0) {
        throw new UserError(ExitCodes.OUTPUT, String.format(Locale.ROOT, "results file %s exists (%,d bytes): choose"
            + " another -o, move it away, or pass --overwrite to replace it (a crawl is continued with '%s resume"
            + " DIR', which appends; an agent of a shared crawl adds to its own with --append)", output,
            Files.size(path), CommandName.get()));
      }
    } catch (IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write results to " + output + ": " + Errors.reason(e));
    }
  }

  /**
   * Refuses {@code --append} with {@code --overwrite}, before anything is opened.
   *
   * @throws UserError with {@link ExitCodes#USAGE} if both are given
   */
  static void checkAppend(boolean append, boolean overwrite) {
    if (append && overwrite) {
      throw new UserError(ExitCodes.USAGE, "--append and --overwrite do not go together: add to the results file, or"
          + " replace it");
    }
  }

  /** Opens an agent's results: added to with {@code --append}, else emptied ({@link #checkAppend} has passed). */
  static ResultsFile forAgent(String output, boolean append, boolean overwrite, PrintStream stdout) {
    checkAppend(append, overwrite);
    return append ? append(output, stdout) : create(output, stdout);
  }

  /** Opens the results of a new crawl, emptying the file ({@link #checkNew} has passed). */
  static ResultsFile create(String output, PrintStream stdout) {
    return open(output, stdout, false);
  }

  /**
   * Opens a resumed crawl's results (or a restarted agent's, with {@code --append}) for appending, first cutting off a
   * torn last line.
   */
  static ResultsFile append(String output, PrintStream stdout) {
    if (!output.equals("-")) {
      Path path = Path.of(output);
      try {
        if (Files.isRegularFile(path)) {
          repairTornLine(path);
        } else if (!Files.exists(path)) {
          log.warn("results file {} is missing; it is started again and the pages fetched before are not in it",
              output);
        }
      } catch (IOException e) {
        throw new UserError(ExitCodes.OUTPUT, "cannot write results to " + output + ": " + Errors.reason(e));
      }
    }
    return open(output, stdout, true);
  }

  private static ResultsFile open(String output, PrintStream stdout, boolean append) {
    try {
      if (output.equals("-")) {
        return new ResultsFile("standard output", null, false, new JsonLinesWriter(new CheckedStdout(stdout), false));
      }
      FileOutputStream file = new FileOutputStream(output, append);
      boolean regularFile = Files.isRegularFile(Path.of(output));
      return new ResultsFile(output, file, regularFile, new JsonLinesWriter(file, true));
    } catch (IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write results to " + output + ": " + Errors.reason(e));
    }
  }

  /**
   * Cuts everything after the last newline: a line cut short by a kill (or a full disk) is the only damage an
   * append-only file of whole lines can suffer. The page it described was not acknowledged and is fetched again.
   */
  static long repairTornLine(Path path) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw")) {
      long length = raf.length();
      long end = length;
      byte[] chunk = new byte[8192];
      while (end > 0) {
        int n = (int) Math.min(chunk.length, end);
        raf.seek(end - n);
        raf.readFully(chunk, 0, n);
        for (int i = n - 1; i >= 0; i--) {
          if (chunk[i] == '\n') {
            long keep = end - n + i + 1;
            if (keep < length) {
              raf.setLength(keep);
              log.info("results file {}: cut off a torn last line ({} bytes) left by an interrupted run", path,
                  String.format(Locale.ROOT, "%,d", length - keep));
            }
            return length - keep;
          }
        }
        end -= n;
      }
      if (length > 0) {
        raf.setLength(0);
        log.info("results file {}: cut off a torn line ({} bytes) left by an interrupted run", path,
            String.format(Locale.ROOT, "%,d", length));
      }
      return length;
    }
  }

  JsonLinesWriter writer() {
    return writer;
  }

  String name() {
    return name;
  }

  /** Forces the file to the device (power cuts); standard output, a device or a pipe is left alone. */
  void sync() throws IOException {
    if (regularFile) {
      file.getFD().sync();
    }
  }

  @Override
  public void close() throws IOException {
    try {
      writer.close();
    } finally {
      if (file != null) {
        file.close();
      }
    }
  }

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
}

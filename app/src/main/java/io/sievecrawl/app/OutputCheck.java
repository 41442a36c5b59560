package io.sievecrawl.app;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks made before a crawl creates or empties any file: can an output the user named be written at all? The rule
 * for every output, files ({@code -o}, {@code --log-file}, {@code --stats-json}, ...) and folders ({@code --job},
 * {@code --warc}) alike: what is named is created, the folders above it must exist. A mistyped path then fails at
 * the start, in one line, instead of putting a crawl's output in a new tree of folders nobody looks in; as a shell's
 * {@code >}, {@code curl -o} and {@code wget -O} do.
 */
final class OutputCheck {
  private OutputCheck() {}

  /** A file to write ({@code null}: none asked for): not a directory, in a folder that exists and is writable. */
  static void file(Path file) {
    if (file == null) {
      return;
    }
    if (Files.isDirectory(file)) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write " + file + ": it is a directory");
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write " + file + ": folder " + parent + " does not exist");
    }
    if (parent != null && !Files.isWritable(parent)) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write " + file + ": folder " + parent + " is not writable");
    }
  }

  /** A folder to write in, made if missing: it is a writable folder, or its parent is. */
  static void directory(Path dir) {
    Path absolute = dir.toAbsolutePath();
    if (Files.exists(absolute)) {
      if (!Files.isDirectory(absolute)) {
        throw new UserError(ExitCodes.OUTPUT, "cannot write in " + dir + ": it is not a folder");
      }
      if (!Files.isWritable(absolute)) {
        throw new UserError(ExitCodes.OUTPUT, "cannot write in " + dir + ": it is not writable");
      }
      return;
    }
    Path parent = absolute.getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write in " + dir + ": " + (Files.exists(parent) ? parent
          + " is not a folder" : "folder " + parent + " does not exist"));
    }
    if (parent != null && !Files.isWritable(parent)) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write in " + dir + ": folder " + parent + " is not writable");
    }
  }
}

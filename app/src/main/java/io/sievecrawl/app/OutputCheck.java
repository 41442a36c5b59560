package io.sievecrawl.app;

import java.nio.file.Files;
import java.nio.file.Path;

/** Checks made before a crawl creates or empties any file: can an output the user named be written at all? */
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

  /** A folder to write in, made if missing: its nearest existing ancestor is a writable folder. */
  static void directory(Path dir) {
    Path existing = dir.toAbsolutePath();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null || !Files.isDirectory(existing)) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write in " + dir + ": " + existing + " is not a folder");
    }
    if (!Files.isWritable(existing)) {
      throw new UserError(ExitCodes.OUTPUT, "cannot write in " + dir + ": folder " + existing + " is not writable");
    }
  }
}

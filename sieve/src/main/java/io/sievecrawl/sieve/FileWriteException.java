package io.sievecrawl.sieve;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A write to one file failed (a full disk, a lost permission): the file is named, so that a crawl whose files lie on
 * several disks says which one is full.
 */
public final class FileWriteException extends IOException {
  private final transient Path file;

  public FileWriteException(Path file, IOException cause) {
    super(file + ": " + reasonOf(cause), cause);
    this.file = file;
  }

  /** The file whose write failed. */
  public Path file() {
    return file;
  }

  /** Why, as the system said it ({@code No space left on device}). */
  public String reason() {
    return reasonOf((IOException) getCause());
  }

  private static String reasonOf(IOException e) {
    if (e instanceof FileWriteException inner) {
      return inner.reason();
    }
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "Permission denied";
    }
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "No such file or directory";
    }
    if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}

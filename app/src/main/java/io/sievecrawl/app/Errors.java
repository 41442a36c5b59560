package io.sievecrawl.app;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** Turns I/O failures into the short reason a user can act on ("Permission denied", "No space left on device"). */
final class Errors {
  private Errors() {}

  static String reason(IOException e) {
    if (e instanceof io.sievecrawl.sieve.FileWriteException write) {
      return write.reason(); // the file is named by the message around the reason, or by the caller
    }
    if (e instanceof AccessDeniedException) {
      return "Permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "No such file or directory";
    }
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    String message = e.getMessage();
    if (message == null) {
      return e.getClass().getSimpleName();
    }
    // FileOutputStream says "name (Permission denied)": keep the reason. Other messages are whole sentences.
    int open = message.lastIndexOf(" (");
    return e instanceof java.io.FileNotFoundException && open >= 0 && message.endsWith(")")
        ? message.substring(open + 2, message.length() - 1) : message;
  }
}

package io.sievecrawl.sieve;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Small helpers for files that must survive a crash: atomic replacement and forcing to the device.
 *
 * <p>A file replaced with {@link #replace} is either the old version or the new one after a kill or a power cut,
 * never half of each: the new content is written to a temporary file, forced, renamed over the old one, and the
 * directory is forced so that the rename itself is durable.
 */
public final class Durable {
  private Durable() {}

  /** Replaces {@code file} with {@code text} (UTF-8) atomically and durably. */
  public static void replace(Path file, String text) throws IOException {
    replace(file, text.getBytes(StandardCharsets.UTF_8));
  }

  /** Replaces {@code file} with {@code bytes} atomically and durably. */
  public static void replace(Path file, byte[] bytes) throws IOException {
    replace(file, bytes, false);
  }

  /**
   * As {@link #replace(Path, byte[])}, for a file that may hold secrets (credentials, session cookies): where the file
   * system has POSIX permissions, only its owner may read it (0600).
   */
  public static void replacePrivate(Path file, byte[] bytes) throws IOException {
    replace(file, bytes, true);
  }

  private static void replace(Path file, byte[] bytes, boolean ownerOnly) throws IOException {
    try {
      write(file, bytes, ownerOnly);
    } catch (FileWriteException e) {
      throw e;
    } catch (IOException e) {
      throw new FileWriteException(file, e); // a crawl's files may lie on another disk than its results
    }
  }

  private static void write(Path file, byte[] bytes, boolean ownerOnly) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Path temp = dir.resolve(file.getFileName() + ".tmp");
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      if (ownerOnly && temp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-------")); // before any byte
      }
      java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    syncDirectory(dir);
  }

  /**
   * Moves {@code source} to {@code target} (copied across file systems) and forces the file and the directory entry
   * to the device.
   */
  public static void move(Path source, Path target) throws IOException {
    Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
    try (FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE)) {
      channel.force(true);
    }
    syncDirectory(target.toAbsolutePath().getParent());
  }

  /**
   * Forces {@code dir}'s entries (new, renamed and deleted files) to the device. Where the platform cannot open a
   * directory for this (not Linux), does nothing.
   */
  public static void syncDirectory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      if (Files.isDirectory(dir) && e.getMessage() != null && e.getMessage().contains("Is a directory")) {
        return; // opening a directory is not supported here
      }
      throw e;
    }
  }
}

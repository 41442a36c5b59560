package io.sievecrawl.sieve;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Function;

/**
 * One process at a time in a directory, or in one part of it: an exclusive lock on a lock file, held until
 * {@link #close()}. The operating system drops the lock when the process ends, however it ends (kill -9 included), so
 * a lock file left behind never blocks the next run. The file holds the holder's process id, for the message another
 * process gets. A crawl directory is locked this way, and each WARC prefix in a WARC directory (a WARC directory may
 * lie inside the crawl directory: their lock files differ).
 *
 * <p>A lock this process holds already is refused as well: the same directory opened twice by one process is as much
 * a mistake as by two.
 */
public final class DirectoryLock implements Closeable {
  private final FileChannel channel;

  private DirectoryLock(FileChannel channel) {
    this.channel = channel;
  }

  /**
   * Takes the lock on {@code file} (creating it).
   *
   * @param refusal the exception thrown when another holds it, given the holder: {@code " (process PID)"}, or
   *     {@code ""} where the file names none
   */
  public static DirectoryLock take(Path file, Function<String, ? extends IOException> refusal) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null; // this process has it already
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      String holder = holder(file);
      channel.close();
      throw refusal.apply(holder);
    }
    try {
      channel.truncate(0);
      channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    return new DirectoryLock(channel);
  }

  private static String holder(Path file) {
    try {
      String pid = Files.readString(file, StandardCharsets.US_ASCII).strip();
      return pid.isEmpty() || !pid.chars().allMatch(Character::isDigit) ? "" : " (process " + pid + ")";
    } catch (IOException e) {
      return "";
    }
  }

  /** Releases the lock; the file stays. */
  @Override
  public void close() throws IOException {
    if (channel.isOpen()) {
      channel.close(); // releases the lock
    }
  }
}

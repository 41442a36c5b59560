package io.sievecrawl.crawler.job;

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

/**
 * One process per crawl directory: an exclusive lock on its {@code lock} file, held while the process works the
 * crawl. The operating system drops the lock when the process ends, however it ends (kill -9 included), so a stale
 * lock file never blocks a resume. The file holds the holder's process id, for the message a second process gets.
 */
final class DirectoryLock implements Closeable {
  static final String NAME = CrawlFiles.LOCK;

  private final FileChannel channel;

  private DirectoryLock(FileChannel channel) {
    this.channel = channel;
  }

  /**
   * Takes the lock of {@code dir}.
   *
   * @throws CrawlJobException if another process (or another crawl of this one) holds it
   */
  static DirectoryLock take(Path dir) throws IOException {
    Path file = dir.resolve(NAME);
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
      throw new CrawlJobException(dir + " is in use by another sievecrawl process" + holder + ": one process per"
          + " crawl directory; wait for it to end, or stop it (Ctrl-C, or kill with its process id)");
    }
    channel.truncate(0);
    channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
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

  @Override
  public void close() throws IOException {
    if (channel.isOpen()) {
      channel.close(); // releases the lock
    }
  }
}

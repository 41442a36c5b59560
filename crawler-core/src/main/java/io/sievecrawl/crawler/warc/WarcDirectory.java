package io.sievecrawl.crawler.warc;

import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.fetch.CaptureBuffer;
import io.sievecrawl.sieve.DirectoryLock;
import io.sievecrawl.sieve.Durable;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory of WARC files as one writer holds it, for one prefix: its lock, the repair of files a killed run left
 * open, and the names of new files ({@code PREFIX-TIMESTAMP-SERIAL.warc.gz}, written as {@code *.warc.gz.open} and
 * renamed when closed). Serials go on from the highest in the directory.
 *
 * <p>One writer per directory and prefix ({@code .PREFIX.lock}, a {@link DirectoryLock}), since files are repaired
 * and serials counted on opening; other prefixes may share the directory, and the directory may lie inside a crawl
 * directory. Used by one thread at a time (the archive's lock).
 */
public final class WarcDirectory implements Closeable {
  /** Suffix of a file being written. */
  public static final String OPEN_SUFFIX = ".open";
  private static final Logger log = LoggerFactory.getLogger(WarcDirectory.class);
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS").withZone(ZoneOffset.UTC);

  private final Path dir;
  private final String prefix;
  private final DirectoryLock lock;
  private int nextSerial;

  private WarcDirectory(Path dir, String prefix, DirectoryLock lock, int nextSerial) {
    this.dir = dir;
    this.prefix = prefix;
    this.lock = lock;
    this.nextSerial = nextSerial;
  }

  /**
   * Takes {@code dir} (creating it) for the files named {@code prefix}, first repairing those a killed run left open
   * and removing its capture spill files.
   *
   * @throws WarcInUseException if another writer holds it
   */
  static WarcDirectory open(Path dir, String prefix) throws IOException {
    Files.createDirectories(dir);
    DirectoryLock lock = lock(dir, prefix); // before the repair: another process's open file is not ours to repair
    try {
      return new WarcDirectory(dir, prefix, lock, repairLeftovers(dir, prefix) + 1);
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /** Repairs the open files of {@code prefix} and removes spill files; returns the highest serial there. */
  private static int repairLeftovers(Path dir, String prefix) throws IOException {
    Pattern name = Pattern.compile(Pattern.quote(prefix) + "-\\d{17}-(\\d{5,})\\.warc\\.gz("
        + Pattern.quote(OPEN_SUFFIX) + ")?");
    int highest = 0;
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path file : entries.sorted().toList()) {
        String fileName = file.getFileName().toString();
        if (fileName.startsWith(CaptureBuffer.SPILL_PREFIX)) {
          Files.deleteIfExists(file);
          continue;
        }
        Matcher m = name.matcher(fileName);
        if (m.matches()) {
          highest = Math.max(highest, Integer.parseInt(m.group(1)));
          if (m.group(2) != null) {
            repair(file);
          }
        }
      }
    }
    return highest;
  }

  /**
   * Makes the WARC files of {@code dir} whole for reading after the fact (an index, a package): files a killed run
   * left open are repaired as the next run would repair them. Returns how many were.
   *
   * @throws WarcInUseException if a crawl is writing WARC files there now
   */
  public static int closeLeftovers(Path dir) throws IOException {
    List<DirectoryLock> locks = new ArrayList<>();
    try {
      try (Stream<Path> entries = Files.list(dir)) {
        for (Path file : entries.toList()) {
          String name = file.getFileName().toString();
          if (name.startsWith(".") && name.endsWith(".lock")) {
            locks.add(lock(dir, name.substring(1, name.length() - ".lock".length())));
          }
        }
      }
      int repaired = 0;
      try (Stream<Path> entries = Files.list(dir)) {
        for (Path file : entries.filter(f -> f.getFileName().toString().endsWith(".warc.gz" + OPEN_SUFFIX))
            .toList()) {
          repair(file);
          repaired++;
        }
      }
      return repaired;
    } finally {
      for (DirectoryLock lock : locks) {
        lock.close();
      }
    }
  }

  /** Takes the directory for this prefix; held until {@link #close()}. */
  private static DirectoryLock lock(Path dir, String prefix) throws IOException {
    return DirectoryLock.take(dir.resolve("." + prefix + ".lock"), holder -> new WarcInUseException("another"
        + " sievecrawl is writing WARC files named " + prefix + "-* there; give each agent its own --warc directory"
        + " or " + Setting.WARC_PREFIX.key()));
  }

  /**
   * Closes a file a killed run left open: cuts it back to its last complete record (the record being written when
   * the process died is lost; its page is fetched again by the resumed crawl) and renames it, or deletes it when
   * not even its warcinfo record is complete.
   *
   * @return bytes cut off
   */
  static long repair(Path open) throws IOException {
    long cut;
    long kept;
    try (FileChannel file = FileChannel.open(open, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      kept = GzipMembers.completeLength(file);
      long intactAfter = kept < file.size() ? GzipMembers.intactMemberAfter(file, kept) : -1;
      if (intactAfter >= 0) {
        throw new WarcDamagedException(open + " is damaged at byte " + kept + ", with complete records after it (from"
            + " byte " + intactAfter + "): not the torn end a kill leaves, so nothing was cut; move the file out of "
            + open.getParent() + " to go on (its records before byte " + kept + " are intact)");
      }
      cut = file.size() - kept;
      if (cut > 0) {
        file.truncate(kept);
        file.force(true);
      }
    }
    Path closed = closedName(open);
    if (kept == 0) {
      Files.delete(open);
      log.info("WARC file {} was left open by a run that did not finish and held no complete record: removed",
          open);
    } else {
      Files.move(open, closed, StandardCopyOption.ATOMIC_MOVE);
      log.info("WARC file {} was left open by a run that did not finish: {} closed as {}", open,
          cut > 0 ? String.format(Locale.ROOT, "cut back by %,d bytes to its last complete record and", cut)
              : "complete,", closed);
    }
    Durable.syncDirectory(open.getParent());
    return cut;
  }

  /**
   * Creates the next file, empty, under its open name ({@code PREFIX-TIMESTAMP-SERIAL.warc.gz.open}, stamped
   * {@code now}), durably: a power cut cannot lose the file however often it is forced later.
   */
  Path startFile(Instant now) throws IOException {
    while (true) {
      String name = prefix + "-" + STAMP.format(now) + "-" + String.format("%05d", nextSerial++) + ".warc.gz";
      Path path = dir.resolve(name + OPEN_SUFFIX);
      try {
        Files.createFile(path);
      } catch (FileAlreadyExistsException e) {
        continue; // a file of that name exists already (a clock set back): take the next serial
      }
      Durable.syncDirectory(dir);
      return path;
    }
  }

  /** Renames a file written to the end (and forced) to its closed name, durably; returns the closed file. */
  Path closeFile(Path open) throws IOException {
    Path closed = closedName(open);
    Files.move(open, closed, StandardCopyOption.ATOMIC_MOVE);
    Durable.syncDirectory(dir);
    return closed;
  }

  /** The name of an open file once closed: without {@link #OPEN_SUFFIX}. */
  static Path closedName(Path open) {
    String fileName = open.getFileName().toString();
    return open.resolveSibling(fileName.substring(0, fileName.length() - OPEN_SUFFIX.length()));
  }

  Path dir() {
    return dir;
  }

  /** Lets another writer take the directory. */
  @Override
  public void close() throws IOException {
    lock.close();
  }
}
